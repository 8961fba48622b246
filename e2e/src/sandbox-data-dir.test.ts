import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { resetSandboxDataDir } from './sandbox-data-dir.js';

describe('the sandbox data folder', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sandbox-data-dir-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('is created when missing and emptied at the next start', async () => {
    const dir = join(root, 'fresh');
    await resetSandboxDataDir(dir);
    await mkdir(join(dir, 'pglite'));
    await writeFile(join(dir, 'pglite', 'PG_VERSION'), '17');
    await resetSandboxDataDir(dir);
    expect(await readdir(dir)).toEqual(['.noderings-sandbox']);
  });

  it('is refused, and left as it was, when it holds files the sandbox did not make', async () => {
    const dir = join(root, 'someone-elses');
    await mkdir(dir);
    await writeFile(join(dir, 'thesis.tex'), 'years of work');
    await expect(resetSandboxDataDir(dir)).rejects.toMatchObject({ code: 'FOREIGN_DATA_DIR' });
    expect(await readdir(dir)).toEqual(['thesis.tex']);
  });

  it('accepts an empty folder', async () => {
    const dir = join(root, 'empty');
    await mkdir(dir);
    await resetSandboxDataDir(dir);
    expect(await readdir(dir)).toEqual(['.noderings-sandbox']);
  });
});
