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

  it('pins a simulated k3s and Calico by their file: URLs and the SHA-256 of what the files hold', async () => {
    const { file, document } = await writeSandboxPlatformVersions(join(dir, 'platform-versions'));
    expect(parsePlatformVersions(JSON.parse(await readFile(file, 'utf8')))).toEqual(document);
    const [k3s, calico, operator] = document.components;
    expect(document.components.map((c) => c.name)).toEqual([
      'k3s',
      'calico',
      'proxmox-operator',
      'pve-exporter',
      'alloy',
    ]);
    for (const download of [k3s, calico]) {
      const url = new URL(download?.downloadUrl ?? '');
      expect(url.protocol).toBe('file:');
      const artifact = await readFile(url);
      expect(createHash('sha256').update(artifact).digest('hex')).toBe(download?.checksumSha256);
    }
    expect((await readFile(new URL(k3s?.downloadUrl ?? ''), 'utf8')).split('\n')[1]).toContain(
      `k3s version ${k3s?.version ?? ''}`,
    );
    expect(await readFile(new URL(calico?.downloadUrl ?? ''), 'utf8')).toContain(
      'installations.operator.tigera.io',
    );
    expect(operator?.image).toMatch(/\/proxmox-operator@sha256:[0-9a-f]{64}$/);
  });
});
