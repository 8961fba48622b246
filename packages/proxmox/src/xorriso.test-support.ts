/**
 * Test support: reads ISO images back with xorriso, the tool our images must satisfy. Tests that use it
 * fail (never skip) when xorriso is missing, so a CI machine without it cannot pass by accident.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** xorriso keeps going after these and exits 0, so they are only visible on stderr. */
const COMPLAINT = /: (WARNING|SORRY|FAILURE|FATAL|ABORT) :/;

/** Runs xorriso and returns its stdout; throws if it is missing, fails, or complains about the image. */
export async function xorriso(args: readonly string[]): Promise<string> {
  let stdout: string;
  let stderr: string;
  try {
    ({ stdout, stderr } = await execFileAsync('xorriso', args, { encoding: 'utf8' }));
  } catch (e: unknown) {
    if (e instanceof Error && 'code' in e && e.code === 'ENOENT') {
      throw new Error(
        'xorriso is not installed; these tests read images back with it (apt-get install xorriso)',
        { cause: e },
      );
    }
    throw e;
  }
  const complaint = stderr.split('\n').find((line) => COMPLAINT.test(line));
  if (complaint !== undefined) {
    throw new Error(`xorriso complained about the image: ${complaint}`);
  }
  return stdout;
}

/** The names in `xorriso -ls` / `-lsl` output, which quotes each name at the end of its line. */
export function listedNames(stdout: string): string[] {
  return stdout
    .split('\n')
    .map((line) => /'(.*)'$/.exec(line)?.[1])
    .filter((name) => name !== undefined);
}

/** Extracts the whole image the way a user would (Rock Ridge names) and returns each file's bytes. */
export async function extractFiles(isoPath: string, outDir: string): Promise<Map<string, Buffer>> {
  await xorriso(['-indev', isoPath, '-osirrox', 'on', '-extract', '/', outDir]);
  // xorriso gives the extracted root the image's read-only mode; restore write access so cleanup works.
  await chmod(outDir, 0o755);
  const files = new Map<string, Buffer>();
  for (const name of await readdir(outDir)) {
    files.set(name, await readFile(join(outDir, name)));
  }
  return files;
}

export async function makeScratchDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'noderings-iso-'));
}

export async function removeScratchDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
