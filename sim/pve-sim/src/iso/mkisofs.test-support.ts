import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface Extensions {
  joliet: boolean;
  rockRidge: boolean;
}

/** Writes `files` under `dir/source` and masters them (volume id `cidata`) with xorriso's mkisofs emulation. */
export async function mkisofs(
  dir: string,
  files: Record<string, Buffer>,
  extensions: Extensions,
): Promise<Buffer> {
  const source = join(dir, 'source');
  await rm(source, { recursive: true, force: true });
  for (const [path, data] of Object.entries(files)) {
    await mkdir(dirname(join(source, path)), { recursive: true });
    await writeFile(join(source, path), data);
  }
  const iso = join(dir, 'image.iso');
  try {
    // The emulation writes Rock Ridge even without -R; only the native command turns it off.
    await execFileAsync('xorriso', [
      ...(extensions.rockRidge ? [] : ['-rockridge', 'off']),
      ...['-as', 'mkisofs', '-V', 'cidata', '-no-pad'],
      ...(extensions.joliet ? ['-J'] : []),
      ...(extensions.rockRidge ? ['-R'] : []),
      ...['-o', iso, source],
    ]);
  } catch (e: unknown) {
    if (e instanceof Error && 'code' in e && e.code === 'ENOENT') {
      throw new Error(
        'xorriso is not installed; these tests master images with it (apt-get install xorriso)',
        { cause: e },
      );
    }
    throw e;
  }
  return readFile(iso);
}
