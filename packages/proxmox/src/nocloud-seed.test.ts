import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildNoCloudSeed, type NoCloudSeed } from './nocloud-seed.js';
import {
  extractFiles,
  listedNames,
  makeScratchDir,
  removeScratchDir,
  xorriso,
} from './xorriso.test-support.js';

const createdAt = new Date('2026-05-06T07:08:09Z');

const fullSeed: NoCloudSeed = {
  userData: '#cloud-config\nhostname: nr-web-1\nssh_authorized_keys:\n  - ssh-ed25519 AAAA user@host\n',
  metaData: 'instance-id: NR-0b7c5d1e\nlocal-hostname: nr-web-1\n',
  networkConfig: 'version: 2\nethernets:\n  eth0:\n    dhcp4: true\n',
  vendorData: '#cloud-config\npackages: [qemu-guest-agent]\n',
  createdAt,
};

let dir: string;
let isoPath: string;

beforeEach(async () => {
  dir = await makeScratchDir();
  isoPath = join(dir, 'seed.iso');
});

afterEach(async () => {
  await removeScratchDir(dir);
});

describe('buildNoCloudSeed', () => {
  it('gives cloud-init all four files under their exact names and contents', async () => {
    await writeFile(isoPath, buildNoCloudSeed(fullSeed));

    const files = await extractFiles(isoPath, join(dir, 'out'));

    expect(Object.fromEntries([...files].map(([name, data]) => [name, data.toString('utf8')]))).toEqual({
      'user-data': fullSeed.userData,
      'meta-data': fullSeed.metaData,
      'network-config': fullSeed.networkConfig,
      'vendor-data': fullSeed.vendorData,
    });
  });

  it('leaves out network-config and vendor-data when they are not given', async () => {
    await writeFile(
      isoPath,
      buildNoCloudSeed({ userData: '#cloud-config\n', metaData: 'instance-id: a\n', createdAt }),
    );

    const files = await extractFiles(isoPath, join(dir, 'out'));

    expect([...files.keys()].sort()).toEqual(['meta-data', 'user-data']);
  });

  it('is labelled cidata, the label NoCloud looks for', async () => {
    await writeFile(isoPath, buildNoCloudSeed(fullSeed));

    const out = await xorriso(['-indev', isoPath, '-pvd_info']);

    expect(out).toMatch(/^Volume Id\s*: cidata$/m);
  });

  it('shows the same names to readers that only use Joliet', async () => {
    await writeFile(isoPath, buildNoCloudSeed(fullSeed));

    const out = await xorriso([
      '-read_fs',
      'norock',
      '-joliet_map',
      'unmapped',
      '-indev',
      isoPath,
      '-ls',
      '/',
    ]);

    expect(listedNames(out).sort()).toEqual(['meta-data', 'network-config', 'user-data', 'vendor-data']);
  });

  it('builds byte-identical seeds from identical input, so an unchanged seed need not be re-uploaded', () => {
    expect(buildNoCloudSeed(fullSeed).equals(buildNoCloudSeed({ ...fullSeed }))).toBe(true);
    expect(
      buildNoCloudSeed(fullSeed).equals(buildNoCloudSeed({ ...fullSeed, userData: '#cloud-config\n' })),
    ).toBe(false);
  });
});
