import { readFile } from 'node:fs/promises';

import { InvalidArgumentError, parsePlatformVersions, type PlatformVersions } from '@noderings/domain';

/** A platform versions file the control plane will not start with; the message names the bad field. */
export class PlatformVersionsFileError extends Error {
  override readonly name = 'PlatformVersionsFileError';
}

/** Reads and checks the document once, at start. */
export async function readPlatformVersionsFile(path: string): Promise<PlatformVersions> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e: unknown) {
    throw new PlatformVersionsFileError(
      `cannot read the platform versions file ${path}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e: unknown) {
    throw new PlatformVersionsFileError(
      `the platform versions file ${path} is not JSON: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  try {
    return parsePlatformVersions(value);
  } catch (e: unknown) {
    if (e instanceof InvalidArgumentError)
      throw new PlatformVersionsFileError(`the platform versions file ${path} is refused: ${e.message}`);
    throw e;
  }
}
