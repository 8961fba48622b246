import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { SandboxError } from './sandbox-error.js';

/** Left in the folder so that a later start knows the folder is the sandbox's to empty. */
const MARKER_FILE = '.noderings-sandbox';

/**
 * Empties `dir` so that every start seeds a fresh database. A folder that has files but not the marker
 * is refused untouched: `--data-dir` pointed at the wrong place must not cost anyone their files.
 */
export async function resetSandboxDataDir(dir: string): Promise<void> {
  const entries = await entriesOf(dir);
  if (entries.length > 0 && !entries.includes(MARKER_FILE)) {
    throw new SandboxError(
      'FOREIGN_DATA_DIR',
      `${dir} is not empty and was not made by the sandbox; choose another --data-dir or empty it yourself`,
    );
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(join(dir, MARKER_FILE), 'Made by `npm start`, which empties this folder at every start.\n');
}

async function entriesOf(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (e: unknown) {
    if (e instanceof Error && 'code' in e && e.code === 'ENOENT') return [];
    throw e;
  }
}
