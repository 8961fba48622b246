import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IsoFormatError, readIso9660 } from './iso9660-reader.js';
import { mkisofs, type Extensions } from './mkisofs.test-support.js';

const seedFiles: Record<string, Buffer> = {
  'user-data': Buffer.from('#cloud-config\nhostname: nr-web-1\n'),
  'meta-data': Buffer.from('instance-id: NR-42\n'),
  'network-config': Buffer.from('version: 2\n'),
  'vendor-data': Buffer.alloc(0),
  'scripts/per-boot/hello.sh': Buffer.from('#!/bin/sh\necho hello\n'),
  'scripts/blob.bin': Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 13) % 256)),
};

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'noderings-iso-reader-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const BOTH: Extensions = { joliet: true, rockRidge: true };
const ROCK_RIDGE: Extensions = { joliet: false, rockRidge: true };
const JOLIET: Extensions = { joliet: true, rockRidge: false };
const NEITHER: Extensions = { joliet: false, rockRidge: false };

function expectFiles(actual: Map<string, Buffer>, expected: Record<string, Buffer>): void {
  expect(Object.fromEntries(actual)).toEqual(expected);
}

/** Offset of the directory record whose identifier is `identifier` (found by its bytes). */
function recordOffset(image: Buffer, identifier: string): number {
  const at = image.indexOf(Buffer.from(identifier, 'latin1'));
  if (at < 33) {
    throw new Error(`record ${identifier} not found`);
  }
  return at - 33;
}

function setBoth32(image: Buffer, offset: number, value: number): void {
  image.writeUInt32LE(value, offset);
  image.writeUInt32BE(value, offset + 4);
}

function expectFormatError(image: Uint8Array, message: RegExp): void {
  let caught: unknown;
  try {
    readIso9660(image);
  } catch (e: unknown) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(IsoFormatError);
  expect((caught as IsoFormatError).message).toMatch(message);
}

describe('readIso9660 on images mastered by xorriso', () => {
  it.each([
    ['Joliet and Rock Ridge', BOTH],
    ['Rock Ridge only', ROCK_RIDGE],
    ['Joliet only', JOLIET],
  ])('reads every file with its exact name, path and bytes (%s)', async (_label, extensions) => {
    const image = await mkisofs(dir, seedFiles, extensions);

    const contents = readIso9660(image);

    expect(contents.volumeId).toBe('cidata');
    expectFiles(contents.files, seedFiles);
  });

  it('falls back to lower-cased ISO 9660 names without ";1" when there is neither extension', async () => {
    const image = await mkisofs(
      dir,
      { 'user-data': Buffer.from('x'), 'README.TXT': Buffer.from('y') },
      NEITHER,
    );

    const contents = readIso9660(image);

    expect([...contents.files.keys()].sort()).toEqual(['readme.txt', 'user_dat']);
  });

  it('assembles a long Rock Ridge name split across entries and a continuation area', async () => {
    const name = `${'long-name-'.repeat(20)}end`;
    const image = await mkisofs(dir, { [name]: Buffer.from('x') }, ROCK_RIDGE);

    expect([...readIso9660(image).files.keys()]).toEqual([name]);
  });

  it('reads a directory whose records span several sectors', async () => {
    const many = Object.fromEntries(
      Array.from({ length: 150 }, (_, i) => [
        `file-${String(i).padStart(3, '0')}-with-a-name-long-enough-to-fill-sectors`,
        Buffer.from(`index ${i}\n`),
      ]),
    );

    for (const extensions of [BOTH, ROCK_RIDGE]) {
      expectFiles(readIso9660(await mkisofs(dir, many, extensions)).files, many);
    }
  });

  it('joins a file recorded as several extents (how files over 4 GiB are stored)', async () => {
    const image = await mkisofs(
      dir,
      { 'part-a': Buffer.from('first half, '), 'part-b': Buffer.from('second half') },
      NEITHER,
    );
    // Make the two adjacent records one file: same identifier, and the first flagged "more extents follow".
    const first = recordOffset(image, 'PART_A.;1');
    image.write('PART_A.;1', recordOffset(image, 'PART_B.;1') + 33, 'latin1');
    image[first + 25] = 0x80;

    expectFiles(readIso9660(image).files, { part_a: Buffer.from('first half, second half') });
  });

  it('accepts a Uint8Array view into a larger buffer', async () => {
    const image = await mkisofs(dir, seedFiles, BOTH);
    const padded = new Uint8Array(image.length + 100);
    padded.set(image, 50);

    expectFiles(readIso9660(padded.subarray(50, 50 + image.length)).files, seedFiles);
  });
});

describe('readIso9660 on malformed images', () => {
  // Rock Ridge only, so the primary tree's records are the ones read.
  let image: Buffer;
  beforeEach(async () => {
    image = await mkisofs(dir, seedFiles, ROCK_RIDGE);
  });

  it('rejects data that is not an ISO 9660 image', () => {
    expectFormatError(new Uint8Array(0), /past the end/);
    expectFormatError(Buffer.alloc(64 * 1024), /not an ISO 9660 image/);
    const badMagic = Buffer.from(image);
    badMagic.write('CD002', 16 * 2048 + 1, 'latin1');
    expectFormatError(badMagic, /not an ISO 9660 image/);
  });

  it('rejects an image truncated before its descriptors end or its files end', () => {
    expectFormatError(image.subarray(0, 17 * 2048), /past the end/);
    expectFormatError(image.subarray(0, image.length - 2048), /past the end/);
  });

  it('rejects a file whose extent lies past the end of the image', () => {
    const broken = Buffer.from(image);
    setBoth32(broken, recordOffset(broken, 'USER_DAT.;1') + 2, 0xfffffff0);
    expectFormatError(broken, /file "user-data" lies past the end/);
  });

  it('rejects a directory that does not start with a record', () => {
    const broken = Buffer.from(image);
    const rootExtent = broken.readUInt32LE(16 * 2048 + 156 + 2);
    broken[rootExtent * 2048] = 0;
    expectFormatError(broken, /does not start with a record/);
  });

  it('rejects a directory that contains itself', () => {
    const broken = Buffer.from(image);
    const rootExtent = broken.readUInt32LE(16 * 2048 + 156 + 2);
    setBoth32(broken, recordOffset(broken, 'SCRIPTS') + 2, rootExtent);
    expectFormatError(broken, /reached twice/);
  });

  it('rejects files whose extents overlap into more bytes than the image holds', () => {
    const broken = Buffer.from(image);
    for (const identifier of ['USER_DAT.;1', 'META_DAT.;1', 'NETWORK_.;1']) {
      const record = recordOffset(broken, identifier);
      setBoth32(broken, record + 2, 0);
      setBoth32(broken, record + 10, broken.length);
    }
    expectFormatError(broken, /overlap/);
  });

  it('rejects directories whose extents overlap, instead of scanning the same sectors over and over', async () => {
    const names = Array.from({ length: 200 }, (_, i) => `d${String(i).padStart(3, '0')}`);
    const many = await mkisofs(
      dir,
      Object.fromEntries(names.map((name) => [`${name}/f-${name}`, Buffer.from(name)])),
      ROCK_RIDGE,
    );
    const records = names.map((name) => recordOffset(many, name.toUpperCase()));
    const extents = records.map((record) => many.readUInt32LE(record + 2));
    const lastEnd = Math.max(...extents) + 1;
    // Stretch every subdirectory to the end of the last one: each would then also list all that follow it.
    for (const [index, record] of records.entries()) {
      setBoth32(many, record + 10, (lastEnd - (extents[index] ?? 0)) * 2048);
    }

    expectFormatError(many, /overlap/);
  });
});

/** A small deterministic PRNG (mulberry32), so a failing mutation can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * Where the structure lives: the numeric part of the volume descriptors, and every non-zero byte of the
 * directories and continuation areas that follow (their zero padding rarely matters). File data is left
 * alone: changing it cannot make the reader fail.
 */
function structuralOffsets(image: Buffer): number[] {
  const firstData = Math.min(
    ...['USER_DAT.;1', 'META_DAT.;1'].map((id) => image.readUInt32LE(recordOffset(image, id) + 2)),
  );
  const offsets: number[] = [];
  for (let sector = 16; sector < firstData; sector += 1) {
    const isDescriptor = image.toString('latin1', sector * 2048 + 1, sector * 2048 + 6) === 'CD001';
    const end = sector * 2048 + (isDescriptor ? 190 : 2048);
    for (let offset = sector * 2048; offset < end; offset += 1) {
      if (isDescriptor || image[offset] !== 0) {
        offsets.push(offset);
      }
    }
  }
  return offsets;
}

function mutate(image: Buffer, targets: readonly number[], next: () => number): Buffer {
  const pick = (limit: number): number => Math.floor(next() * limit);
  if (next() < 0.1) {
    return Buffer.from(image.subarray(0, pick(image.length)));
  }
  const mutated = Buffer.from(image);
  const changes = 1 + pick(4);
  for (let i = 0; i < changes; i += 1) {
    const offset = targets[pick(targets.length)] ?? 0;
    const kind = next();
    if (kind < 0.5) {
      mutated[offset] = pick(256);
    } else if (kind < 0.8) {
      const value = [0, 1, 0xffffffff, pick(mutated.length / 2048 + 4), pick(2 ** 32)][pick(5)] ?? 0;
      setBoth32(mutated, Math.min(offset, mutated.length - 8), value);
    } else {
      mutated[offset] = 0;
    }
  }
  return mutated;
}

describe('readIso9660 robustness', () => {
  it('either reads or throws IsoFormatError, quickly, for hundreds of seeded mutations', async () => {
    const originals = [await mkisofs(dir, seedFiles, BOTH), await mkisofs(dir, seedFiles, ROCK_RIDGE)].map(
      (image) => ({
        image,
        targets: structuralOffsets(image),
      }),
    );
    let returned = 0;
    let rejected = 0;
    const started = performance.now();

    for (let seed = 1; seed <= 400; seed += 1) {
      const next = random(seed);
      const original = originals[seed % originals.length];
      if (original === undefined) {
        throw new Error('no original image');
      }
      const mutated = mutate(original.image, original.targets, next);
      const callStarted = performance.now();
      let outcome: unknown;
      try {
        outcome = readIso9660(mutated);
      } catch (e: unknown) {
        outcome = e;
      }
      if (outcome instanceof Error) {
        expect(outcome, `seed ${seed}: ${outcome.stack ?? outcome.message}`).toBeInstanceOf(IsoFormatError);
        rejected += 1;
      } else {
        const { files } = outcome as ReturnType<typeof readIso9660>;
        const total = [...files.values()].reduce((sum, data) => sum + data.length, 0);
        expect(total, `seed ${seed}: file bytes within image size`).toBeLessThanOrEqual(mutated.length);
        returned += 1;
      }
      expect(performance.now() - callStarted, `seed ${seed}: time`).toBeLessThan(1000);
    }

    // Both outcomes must occur, or the mutations are not exercising the reader.
    expect(returned).toBeGreaterThan(0);
    expect(rejected).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
