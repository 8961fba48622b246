import { describe, expect, it } from 'vitest';

import { InvalidArgumentError } from './domain-error.js';
import { parsePlatformVersions } from './platform-versions.js';

const HEX_A = 'a'.repeat(64);
const HEX_B = 'b'.repeat(64);

const download = {
  name: 'k3s',
  version: 'v1.34.2+k3s1',
  downloadUrl: 'https://github.com/k3s-io/k3s/releases/download/v1.34.2%2Bk3s1/k3s',
  checksumSha256: HEX_A,
};
const image = {
  name: 'proxmox-operator',
  version: '0.1.0',
  image: `ghcr.io/noderings/proxmox-operator@sha256:${HEX_B}`,
  checksumSha256: HEX_B,
};

function violationsOf(document: unknown): { field: string; description: string }[] {
  try {
    parsePlatformVersions(document);
  } catch (e: unknown) {
    if (e instanceof InvalidArgumentError) return [...e.fieldViolations];
    throw e;
  }
  throw new Error('the document was accepted');
}

describe('parsePlatformVersions', () => {
  it('takes downloads by https or file: URL and images pinned by their digest', () => {
    const document = {
      channel: 'stable',
      components: [download, image, { ...download, name: 'local', downloadUrl: 'file:///tmp/k3s' }],
    };
    expect(parsePlatformVersions(document)).toEqual(document);
  });

  it('names each field it refuses', () => {
    const { checksumSha256: _, ...unsummed } = download;
    const cases: [unknown, string, RegExp][] = [
      [unsummed, 'components.0.checksumSha256', /required/],
      [{ ...download, checksumSha256: HEX_A.toUpperCase() }, 'components.0.checksumSha256', /lower-case/],
      [{ ...image, image: 'ghcr.io/noderings/proxmox-operator:0.1.0' }, 'components.0.image', /digest/],
      [{ ...image, checksumSha256: HEX_A }, 'components.0.checksumSha256', /image's digest/],
      [{ ...download, downloadUrl: 'http://example.com/k3s' }, 'components.0.downloadUrl', /https/],
      [{ ...image, downloadUrl: download.downloadUrl }, 'components.0.image', /exactly one/],
      [{ name: 'k3s', version: 'v1', checksumSha256: HEX_A }, 'components.0.downloadUrl', /exactly one/],
      [{ ...download, name: 'K3S' }, 'components.0.name', /DNS label/],
      [{ ...download, version: '' }, 'components.0.version', /empty/],
    ];
    for (const [component, field, description] of cases) {
      const violations = violationsOf({ channel: 'stable', components: [component] });
      expect(
        violations.map((v) => v.field),
        field,
      ).toEqual([field]);
      expect(violations[0]?.description).toMatch(description);
    }
  });

  it('refuses a name listed twice, at its second place', () => {
    const violations = violationsOf({ channel: 'stable', components: [download, image, download] });
    expect(violations).toEqual([
      { field: 'components.2.name', description: 'k3s is listed twice; names are unique' },
    ]);
  });

  it('refuses fields it does not know, so that a misspelt one is not silently dropped', () => {
    expect(violationsOf({ channel: 'stable', components: [{ ...download, sha256: HEX_A }] })[0]?.field).toBe(
      'components.0',
    );
  });
});
