import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIso9660Image, Iso9660Error, type Iso9660ErrorCode, type Iso9660File } from './iso9660-image.js';
import {
  extractFiles,
  listedNames,
  makeScratchDir,
  removeScratchDir,
  xorriso,
} from './xorriso.test-support.js';

const createdAt = new Date('2026-03-04T05:06:07.890Z');
const everyByte = Uint8Array.from({ length: 256 }, (_, i) => i);
const multiSector = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7) % 251);

const files: Iso9660File[] = [
  { name: 'user-data', data: '#cloud-config\nhostname: web-1\n' },
  { name: 'meta-data', data: 'instance-id: NR-42\n' },
  { name: 'network-config', data: 'version: 2\n' },
  { name: 'vendor-data', data: '' },
  { name: 'every-byte.bin', data: everyByte },
  { name: 'multi-sector.bin', data: multiSector },
  { name: 'crème brûlée.txt', data: 'ünïcödé\n' },
  // Same level-1 identifier as user-data (USER_DAT.;1): must still come out as its own file.
  { name: 'user-dat', data: 'not user-data' },
];

function expectedBytes(file: Iso9660File): Buffer {
  return typeof file.data === 'string' ? Buffer.from(file.data, 'utf8') : Buffer.from(file.data);
}

let dir: string;
let isoPath: string;

beforeEach(async () => {
  dir = await makeScratchDir();
  isoPath = join(dir, 'img.iso');
});

afterEach(async () => {
  await removeScratchDir(dir);
});

async function writeImage(image: Buffer): Promise<void> {
  await writeFile(isoPath, image);
}

describe('buildIso9660Image read back with xorriso', () => {
  it('extracts every file with its exact bytes and name', async () => {
    await writeImage(buildIso9660Image({ volumeId: 'cidata', files, createdAt }));

    const extracted = await extractFiles(isoPath, join(dir, 'out'));

    expect([...extracted.keys()].sort()).toEqual(files.map((f) => f.name).sort());
    for (const file of files) {
      expect(extracted.get(file.name), file.name).toEqual(expectedBytes(file));
    }
  });

  it('shows the original names in the Rock Ridge tree, as read-only regular files', async () => {
    await writeImage(buildIso9660Image({ volumeId: 'cidata', files, createdAt }));

    // With unmapped ECMA-119 names, a missing Rock Ridge tree would show up as "USER_DAT.;1".
    const out = await xorriso([
      '-read_fs',
      'nojoliet',
      '-ecma119_map',
      'unmapped',
      '-indev',
      isoPath,
      '-lsl',
      '/',
    ]);

    expect(listedNames(out).sort()).toEqual(files.map((f) => f.name).sort());
    const modes = out
      .split('\n')
      .filter((line) => line.endsWith("'"))
      .map((line) => line.slice(0, 10));
    expect(new Set(modes)).toEqual(new Set(['-r--r--r--']));
  });

  it('shows the original names in the Joliet tree', async () => {
    await writeImage(buildIso9660Image({ volumeId: 'cidata', files, createdAt }));

    const out = await xorriso([
      '-read_fs',
      'norock',
      '-joliet_map',
      'unmapped',
      '-ecma119_map',
      'unmapped',
      '-indev',
      isoPath,
      '-ls',
      '/',
    ]);

    expect(listedNames(out).sort()).toEqual(files.map((f) => f.name).sort());
  });

  it('gives readers without extensions distinct level-1 names', async () => {
    await writeImage(buildIso9660Image({ volumeId: 'cidata', files, createdAt }));

    const out = await xorriso([
      '-read_fs',
      'ecma119',
      '-ecma119_map',
      'unmapped',
      '-indev',
      isoPath,
      '-ls',
      '/',
    ]);

    const names = listedNames(out);
    expect(names).toContain('USER_DAT.;1');
    expect(names).toContain('META_DAT.;1');
    expect(names).toContain('NETWORK_.;1');
    expect(names).toContain('EVERY_BY.BIN;1');
    expect(new Set(names).size).toBe(files.length);
    for (const name of names) {
      expect(name).toMatch(/^[A-Z0-9_]{1,8}\.[A-Z0-9_]{0,3};1$/);
    }
  });

  it('labels the volume and stamps it with createdAt', async () => {
    await writeImage(buildIso9660Image({ volumeId: 'cidata', files, createdAt }));

    const out = await xorriso(['-indev', isoPath, '-pvd_info']);

    expect(out).toMatch(/^Volume Id\s*: cidata$/m);
    expect(out).toMatch(/^Creation Time: 2026030405060789$/m);
  });

  it('declares a volume size that matches the image, and xorriso finds every block readable', async () => {
    const image = buildIso9660Image({ volumeId: 'cidata', files, createdAt });
    await writeImage(image);

    const out = await xorriso(['-indev', isoPath, '-check_media', '--']);

    const blocks = image.length / 2048;
    expect(Number.isInteger(blocks)).toBe(true);
    expect(out).toMatch(new RegExp(`^Media region :\\s+0 ,\\s+${blocks} , \\+ good$`, 'm'));
  });

  it('keeps the big-endian halves of both-endian fields equal to the little-endian ones', () => {
    const image = buildIso9660Image({ volumeId: 'cidata', files, createdAt });

    for (const sector of [16, 17]) {
      const d = image.subarray(sector * 2048);
      expect(d.readUInt32BE(84), 'volume space size').toBe(image.length / 2048);
      expect(d.readUInt32LE(80), 'volume space size').toBe(image.length / 2048);
      expect(d.readUInt16BE(130), 'block size').toBe(2048);
      expect(d.readUInt32BE(136), 'path table size').toBe(d.readUInt32LE(132));
      expect(d.readUInt32BE(156 + 6), 'root extent').toBe(d.readUInt32LE(156 + 2));
      expect(d.readUInt32BE(156 + 14), 'root size').toBe(d.readUInt32LE(156 + 10));
      // The M path table's root entry must point where the L table's does.
      const l = d.readUInt32LE(140) * 2048;
      const m = d.readUInt32BE(148) * 2048;
      expect(image.readUInt32BE(m + 2)).toBe(image.readUInt32LE(l + 2));
    }
  });

  it('lists many files whose records span several directory sectors', async () => {
    const many = Array.from({ length: 120 }, (_, i) => ({
      name: `file-number-${String(i).padStart(3, '0')}-with-a-rather-long-name.yaml`,
      data: `index: ${i}\n`,
    }));
    await writeImage(buildIso9660Image({ volumeId: 'cidata', files: many, createdAt }));

    const extracted = await extractFiles(isoPath, join(dir, 'out'));
    const joliet = await xorriso([
      '-read_fs',
      'norock',
      '-joliet_map',
      'unmapped',
      '-indev',
      isoPath,
      '-ls',
      '/',
    ]);

    expect(extracted.size).toBe(many.length);
    for (const file of many) {
      expect(extracted.get(file.name)?.toString('utf8'), file.name).toBe(file.data);
    }
    expect(listedNames(joliet).sort()).toEqual(many.map((f) => f.name).sort());
  });

  it('accepts a 64-character name, the Joliet maximum', async () => {
    const name = 'n'.repeat(64);
    await writeImage(buildIso9660Image({ volumeId: 'cidata', files: [{ name, data: 'x' }], createdAt }));

    const joliet = await xorriso([
      '-read_fs',
      'norock',
      '-joliet_map',
      'unmapped',
      '-indev',
      isoPath,
      '-ls',
      '/',
    ]);

    expect(listedNames(joliet)).toEqual([name]);
  });

  it('produces identical bytes for identical input, and different bytes for another createdAt', () => {
    const first = buildIso9660Image({ volumeId: 'cidata', files, createdAt });
    const second = buildIso9660Image({ volumeId: 'cidata', files, createdAt });
    const later = buildIso9660Image({
      volumeId: 'cidata',
      files,
      createdAt: new Date('2027-01-01T00:00:00Z'),
    });

    expect(second.equals(first)).toBe(true);
    expect(later.equals(first)).toBe(false);
  });
});

function expectIso9660Error(build: () => unknown, code: Iso9660ErrorCode): void {
  let caught: unknown;
  try {
    build();
  } catch (e: unknown) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(Iso9660Error);
  expect(caught).toMatchObject({ code });
}

describe('buildIso9660Image input checks', () => {
  const file = { name: 'user-data', data: 'x' };

  it.each([
    ['an empty volume id', ''],
    ['a 33-character volume id', 'A'.repeat(33)],
    ['a volume id with a hyphen', 'my-seed'],
    ['a volume id with a space', 'my seed'],
  ])('rejects %s', (_label, volumeId) => {
    expectIso9660Error(() => buildIso9660Image({ volumeId, files: [file] }), 'INVALID_VOLUME_ID');
  });

  it('accepts a 32-character volume id', () => {
    expect(buildIso9660Image({ volumeId: 'V'.repeat(32), files: [file] }).length).toBeGreaterThan(0);
  });

  it.each([
    ['an empty name', ''],
    ['a name with a slash', 'dir/user-data'],
    ['a name with NUL', 'user\0data'],
    ['a name with a control character', 'user\ndata'],
    ['a name with a colon', 'user:data'],
    ['a 65-character name', 'n'.repeat(65)],
    ['the name "."', '.'],
    ['the name ".."', '..'],
    ['a name outside UCS-2', 'seed-\u{1F600}'],
  ])('rejects %s', (_label, name) => {
    expectIso9660Error(
      () => buildIso9660Image({ volumeId: 'cidata', files: [{ name, data: 'x' }] }),
      'INVALID_FILE_NAME',
    );
  });

  it('rejects a name whose UTF-8 form no longer fits a Rock Ridge directory record', () => {
    const name = '日'.repeat(64);
    expectIso9660Error(
      () => buildIso9660Image({ volumeId: 'cidata', files: [{ name, data: 'x' }] }),
      'INVALID_FILE_NAME',
    );
  });

  it('rejects a duplicate name', () => {
    expectIso9660Error(
      () => buildIso9660Image({ volumeId: 'cidata', files: [file, { ...file, data: 'y' }] }),
      'DUPLICATE_FILE_NAME',
    );
  });

  it('rejects files adding up to more than 100 MiB', () => {
    const sixtyMiB = new Uint8Array(60 * 1024 * 1024);
    const big = [
      { name: 'a', data: sixtyMiB },
      { name: 'b', data: sixtyMiB },
    ];
    expectIso9660Error(() => buildIso9660Image({ volumeId: 'cidata', files: big }), 'IMAGE_TOO_LARGE');
  });

  it('rejects an invalid createdAt', () => {
    expectIso9660Error(
      () => buildIso9660Image({ volumeId: 'cidata', files: [file], createdAt: new Date(Number.NaN) }),
      'INVALID_DATE',
    );
  });
});
