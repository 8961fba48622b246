import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

import { SECRET_KEY_BYTES } from './secret-box.js';

/**
 * The key that seals organisation secrets and kubeconfigs: `NR_SECRET_KEY` (32 bytes, base64 or hex) when
 * given, else a key file created on first start with mode 0600. Losing the key loses every secret.
 */
export async function loadSecretKey(options: {
  readonly fromEnv?: string;
  readonly keyFile: string;
}): Promise<Buffer> {
  if (options.fromEnv !== undefined && options.fromEnv !== '')
    return decodeKey(options.fromEnv, 'NR_SECRET_KEY');
  try {
    const info = await stat(options.keyFile);
    if ((info.mode & 0o077) !== 0) {
      throw new Error(`${options.keyFile} is readable by others: run chmod 600 ${options.keyFile}`);
    }
    return decodeKey((await readFile(options.keyFile, 'utf8')).trim(), options.keyFile);
  } catch (e: unknown) {
    if (!isMissingFile(e)) throw e;
  }
  const key = randomBytes(SECRET_KEY_BYTES);
  await mkdir(dirname(options.keyFile), { recursive: true, mode: 0o700 });
  // 'wx' refuses to overwrite a key another process created a moment ago.
  try {
    await writeFile(options.keyFile, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (e: unknown) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  await chmod(options.keyFile, 0o600);
  return decodeKey((await readFile(options.keyFile, 'utf8')).trim(), options.keyFile);
}

function decodeKey(text: string, source: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== SECRET_KEY_BYTES) {
    throw new Error(`${source} must hold a ${String(SECRET_KEY_BYTES)}-byte key, base64 or hex`);
  }
  return key;
}

function isMissingFile(e: unknown): boolean {
  return e instanceof Error && (e as NodeJS.ErrnoException).code === 'ENOENT';
}
