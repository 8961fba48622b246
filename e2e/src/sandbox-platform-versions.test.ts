import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parsePlatformVersions } from '@noderings/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { writeSandboxPlatformVersions } from './sandbox-platform-versions.js';

describe('writeSandboxPlatformVersions', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sandbox-platform-versions-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('pins a simulated k3s by its file: URL and the SHA-256 of what the file holds', async () => {
    const { file, document } = await writeSandboxPlatformVersions(join(dir, 'platform-versions'));
    expect(parsePlatformVersions(JSON.parse(await readFile(file, 'utf8')))).toEqual(document);
    const [k3s] = document.components;
    expect(k3s?.name).toBe('k3s');
    const url = new URL(k3s?.downloadUrl ?? '');
    expect(url.protocol).toBe('file:');
    const artifact = await readFile(url);
    expect(artifact.toString('utf8')).toMatch(/^#!\/bin\/sh\n[^]*simulated k3s/);
    expect(createHash('sha256').update(artifact).digest('hex')).toBe(k3s?.checksumSha256);
  });
});
