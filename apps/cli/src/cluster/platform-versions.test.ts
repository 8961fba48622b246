import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { cachedDownloadPath, loadPlatformVersions, verifiedDownload } from './platform-versions.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nr-pins-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('pinned downloads', () => {
  it('keeps a download whose SHA-256 is the pin, and uses the kept copy afterwards', async () => {
    const artifact = join(dir, 'k3s');
    await writeFile(artifact, 'the k3s binary');
    const pin = {
      name: 'k3s',
      version: 'v1.34.2+k3s1',
      downloadUrl: pathToFileURL(artifact).href,
      checksumSha256: sha256('the k3s binary'),
    };
    expect((await verifiedDownload(dir, pin)).toString()).toBe('the k3s binary');
    expect(await readFile(cachedDownloadPath(dir, pin), 'utf8')).toBe('the k3s binary');
    await rm(artifact);
    expect((await verifiedDownload(dir, pin)).toString()).toBe('the k3s binary');
  });

  it('refuses a download whose SHA-256 is not the pin, and keeps nothing', async () => {
    const artifact = join(dir, 'k3s');
    await writeFile(artifact, 'a tampered binary');
    const pin = {
      name: 'k3s',
      version: 'v1',
      downloadUrl: pathToFileURL(artifact).href,
      checksumSha256: sha256('the k3s binary'),
    };
    await expect(verifiedDownload(dir, pin)).rejects.toThrow(
      `k3s v1 from ${pin.downloadUrl} has SHA-256 ${sha256('a tampered binary')}, not the pinned ${pin.checksumSha256}; nothing was installed.`,
    );
    await expect(readFile(cachedDownloadPath(dir, pin))).rejects.toThrow('ENOENT');
  });

  it('offline, uses the document kept from the last fetch, else its own pins', async () => {
    const own = await loadPlatformVersions({
      apiUrl: 'http://127.0.0.1:1',
      configDir: dir,
      offline: true,
      keep: true,
    });
    expect(own.channel).toBe('built-in');
    expect(own.components.map((c) => c.name)).toEqual(['k3s']);
    const kept = {
      channel: 'stable',
      components: [
        {
          name: 'calico',
          version: 'v3',
          downloadUrl: 'https://example.test/c.yaml',
          checksumSha256: sha256('c'),
        },
      ],
    };
    await writeFile(join(dir, 'platform-versions.json'), JSON.stringify(kept));
    expect(
      await loadPlatformVersions({ apiUrl: 'http://127.0.0.1:1', configDir: dir, offline: true, keep: true }),
    ).toEqual(kept);
  });

  it('refuses a kept document with a pin that has no checksum', async () => {
    await writeFile(
      join(dir, 'platform-versions.json'),
      JSON.stringify({
        channel: 'stable',
        components: [{ name: 'k3s', version: 'v1', downloadUrl: 'https://example.test/k3s' }],
      }),
    );
    await expect(
      loadPlatformVersions({ apiUrl: 'http://127.0.0.1:1', configDir: dir, offline: true, keep: true }),
    ).rejects.toThrow(
      /are unusable: components\.0\.checksumSha256: is required: a pin without a checksum is refused/,
    );
  });
});
