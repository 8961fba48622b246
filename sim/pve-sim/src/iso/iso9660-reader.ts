/**
 * Reads the files out of an ISO 9660 image (such as an uploaded cloud-init seed) without trusting it:
 * every offset is checked against the image, every walk is bounded, and anything malformed surfaces as
 * an {@link IsoFormatError}. Names come from Joliet if present, else Rock Ridge, else ISO 9660 itself.
 */

export class IsoFormatError extends Error {
  override readonly name = 'IsoFormatError';
}

export interface Iso9660Contents {
  /** The primary volume identifier, trailing padding removed (the label blkid and cloud-init see). */
  volumeId: string;
  /** File contents by path (`dir/file`), copied out of the image; directories appear only in paths. */
  files: Map<string, Buffer>;
}

const SECTOR_SIZE = 2048;
const FIRST_DESCRIPTOR_SECTOR = 16;
const DESCRIPTOR_PRIMARY = 1;
const DESCRIPTOR_SUPPLEMENTARY = 2;
const DESCRIPTOR_TERMINATOR = 255;
const STANDARD_ID = 'CD001';
const JOLIET_ESCAPES = new Set(['%/@', '%/C', '%/E']);
const JOLIET_ESCAPE_LENGTH = 3;
/** Byte offsets within a volume descriptor (ECMA-119 8.4). */
const DescriptorField = {
  type: 0,
  standardId: 1,
  volumeId: 40,
  escapeSequences: 88,
  logicalBlockSize: 128,
  rootRecord: 156,
} as const;
const VOLUME_ID_LENGTH = 32;
/** Byte offsets within a directory record (ECMA-119 9.1). */
const RecordField = {
  extendedAttributeLength: 1,
  extent: 2,
  dataLength: 10,
  flags: 25,
  fileUnitSize: 26,
  interleaveGap: 27,
  identifierLength: 32,
  identifier: 33,
} as const;
const RECORD_HEADER_LENGTH = RecordField.identifier;
const FLAG_ASSOCIATED = 0x04;
const FLAG_DIRECTORY = 0x02;
const FLAG_MULTI_EXTENT = 0x80;
const SUSP_HEADER_LENGTH = 4;
const NM_CONTINUE = 0x01;
const NM_CURRENT_OR_PARENT = 0x06;
/** ECMA-119 allows 8 levels and Rock Ridge trees rarely go much deeper; a hostile chain stops here. */
const MAX_DEPTH = 64;
/** POSIX NAME_MAX; a Rock Ridge name assembled from continuation entries may not exceed it. */
const MAX_NAME_BYTES = 255;
/** Continuation areas one record may chain through; real writers use one or two. */
const MAX_CONTINUATIONS = 16;

type Naming = 'joliet' | 'rock-ridge' | 'primary';

interface Directory {
  extent: number;
  size: number;
  path: string;
  depth: number;
}

interface Walk {
  image: Buffer;
  naming: Naming;
  /** Bytes of Rock Ridge SUSP area every record skips (from the root's SP entry). */
  suspSkip: number;
  files: Map<string, Buffer>;
  visited: Set<number>;
  /**
   * Bytes of directories, continuation areas and files taken so far. In a sound image these regions are
   * disjoint, so they never add up to more than the image; overlapping ones could make a small image
   * cost quadratic time or a huge allocation, so the walk stops there.
   */
  consumed: number;
}

/** Parses `image`; throws {@link IsoFormatError} for anything that is not a well-formed ISO 9660 image. */
export function readIso9660(image: Uint8Array): Iso9660Contents {
  const bytes = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
  const { primary, joliet } = findDescriptors(bytes);
  const blockSize = u16le(primary, DescriptorField.logicalBlockSize);
  if (blockSize !== SECTOR_SIZE) {
    throw new IsoFormatError(`logical block size ${blockSize} is not supported (only ${SECTOR_SIZE})`);
  }
  const volumeId = latin1(primary, DescriptorField.volumeId, VOLUME_ID_LENGTH).replace(/[\s\0]+$/, '');

  const { root, naming, suspSkip } = chooseTree(bytes, primary, joliet);
  const walk: Walk = { image: bytes, naming, suspSkip, files: new Map(), visited: new Set(), consumed: 0 };
  readDirectory(walk, root);
  return { volumeId, files: walk.files };
}

function findDescriptors(image: Buffer): { primary: Buffer; joliet: Buffer | undefined } {
  let primary: Buffer | undefined;
  let joliet: Buffer | undefined;
  // Each pass consumes a sector and region() throws past the end, so a missing terminator cannot hang.
  for (let sector = FIRST_DESCRIPTOR_SECTOR; ; sector += 1) {
    const descriptor = region(image, sector * SECTOR_SIZE, SECTOR_SIZE, `volume descriptor ${sector}`);
    if (latin1(descriptor, DescriptorField.standardId, STANDARD_ID.length) !== STANDARD_ID) {
      throw new IsoFormatError(`not an ISO 9660 image: no "${STANDARD_ID}" in volume descriptor ${sector}`);
    }
    const type = u8(descriptor, DescriptorField.type);
    if (type === DESCRIPTOR_TERMINATOR) {
      break;
    }
    if (type === DESCRIPTOR_PRIMARY) {
      primary ??= descriptor;
    } else if (
      type === DESCRIPTOR_SUPPLEMENTARY &&
      JOLIET_ESCAPES.has(latin1(descriptor, DescriptorField.escapeSequences, JOLIET_ESCAPE_LENGTH))
    ) {
      joliet ??= descriptor;
    }
  }
  if (primary === undefined) {
    throw new IsoFormatError('no primary volume descriptor before the terminator');
  }
  return { primary, joliet };
}

function chooseTree(
  image: Buffer,
  primary: Buffer,
  joliet: Buffer | undefined,
): { root: Directory; naming: Naming; suspSkip: number } {
  if (joliet !== undefined) {
    return { root: rootDirectory(joliet), naming: 'joliet', suspSkip: 0 };
  }
  const root = rootDirectory(primary);
  const suspSkip = rockRidgeSkip(image, root);
  return suspSkip === undefined
    ? { root, naming: 'primary', suspSkip: 0 }
    : { root, naming: 'rock-ridge', suspSkip };
}

function rootDirectory(descriptor: Buffer): Directory {
  const record = descriptor.subarray(
    DescriptorField.rootRecord,
    DescriptorField.rootRecord + RECORD_HEADER_LENGTH + 1,
  );
  return {
    extent: u32le(record, RecordField.extent),
    size: u32le(record, RecordField.dataLength),
    path: '',
    depth: 0,
  };
}

/**
 * Rock Ridge announces itself with a SUSP "SP" entry opening the root's "." record; it also says how
 * many bytes every other record's System Use area skips. Returns undefined when there is none.
 */
function rockRidgeSkip(image: Buffer, root: Directory): number | undefined {
  const dot = directoryRecords(directoryData(image, root), root.path).next();
  if (dot.done === true) {
    return undefined;
  }
  const area = systemUseArea(dot.value, 0);
  const isSp =
    area.length >= 7 && latin1(area, 0, 2) === 'SP' && u8(area, 4) === 0xbe && u8(area, 5) === 0xef;
  return isSp ? u8(area, 6) : undefined;
}

function readDirectory(walk: Walk, directory: Directory): void {
  if (walk.visited.has(directory.extent)) {
    throw new IsoFormatError(
      `directory ${label(directory.path)} at sector ${directory.extent} is reached twice (a loop)`,
    );
  }
  walk.visited.add(directory.extent);
  const names = new Set<string>();
  let pending: { path: string; parts: Buffer[] } | undefined;
  const data = directoryData(walk.image, directory);
  consume(walk, data.length);
  for (const record of directoryRecords(data, directory.path)) {
    const flags = u8(record, RecordField.flags);
    if (isDotOrDotDot(record) || (flags & FLAG_ASSOCIATED) !== 0) {
      continue;
    }
    const name = recordName(walk, record);
    const path = directory.path === '' ? name : `${directory.path}/${name}`;
    // A file over 4 GiB is split into several records with one name; only the last lacks the flag.
    const continuesFile = pending?.path === path;
    if (!continuesFile) {
      if (pending !== undefined) {
        throw new IsoFormatError(`multi-extent file ${label(pending.path)} ends without its last part`);
      }
      if (names.has(name)) {
        throw new IsoFormatError(`directory ${label(directory.path)} holds two entries named ${label(name)}`);
      }
      names.add(name);
    }
    if ((flags & FLAG_DIRECTORY) !== 0) {
      readSubdirectory(walk, record, path, directory.depth + 1);
      continue;
    }
    const part = fileData(walk, record, path);
    const parts = pending !== undefined && continuesFile ? [...pending.parts, part] : [part];
    if ((flags & FLAG_MULTI_EXTENT) !== 0) {
      pending = { path, parts };
      continue;
    }
    pending = undefined;
    // The one copy out of the image (concat always allocates), so callers may keep or change it freely.
    walk.files.set(path, Buffer.concat(parts));
  }
  if (pending !== undefined) {
    throw new IsoFormatError(`multi-extent file ${label(pending.path)} ends without its last part`);
  }
}

function readSubdirectory(walk: Walk, record: Buffer, path: string, depth: number): void {
  if (depth > MAX_DEPTH) {
    throw new IsoFormatError(`directory ${label(path)} is nested deeper than ${MAX_DEPTH} levels`);
  }
  readDirectory(walk, {
    extent: u32le(record, RecordField.extent),
    size: u32le(record, RecordField.dataLength),
    path,
    depth,
  });
}

function fileData(walk: Walk, record: Buffer, path: string): Buffer {
  if (u8(record, RecordField.fileUnitSize) !== 0 || u8(record, RecordField.interleaveGap) !== 0) {
    throw new IsoFormatError(`file ${label(path)} is interleaved, which is not supported`);
  }
  // Data follows the extended attribute record, whose length (in blocks) precedes the extent's data.
  const start =
    (u32le(record, RecordField.extent) + u8(record, RecordField.extendedAttributeLength)) * SECTOR_SIZE;
  const size = u32le(record, RecordField.dataLength);
  const data = region(walk.image, start, size, `file ${label(path)}`);
  consume(walk, size);
  return data;
}

function directoryData(image: Buffer, directory: Directory): Buffer {
  return region(image, directory.extent * SECTOR_SIZE, directory.size, `directory ${label(directory.path)}`);
}

/**
 * Yields a directory's records. A zero length byte means "the rest of this sector is padding"; any
 * other record must fit in its sector, and the first must be the directory's own "." record.
 */
function* directoryRecords(data: Buffer, path: string): Generator<Buffer> {
  let offset = 0;
  while (offset < data.length) {
    const length = u8(data, offset);
    const sectorEnd = Math.min(data.length, (Math.floor(offset / SECTOR_SIZE) + 1) * SECTOR_SIZE);
    if (length === 0) {
      if (offset === 0) {
        throw new IsoFormatError(`directory ${label(path)} does not start with a record`);
      }
      offset = sectorEnd;
      continue;
    }
    if (length < RECORD_HEADER_LENGTH + 1 || offset + length > sectorEnd) {
      throw new IsoFormatError(
        `directory ${label(path)} has a record of length ${length} at byte ${offset} that does not fit`,
      );
    }
    const record = data.subarray(offset, offset + length);
    const idLength = u8(record, RecordField.identifierLength);
    if (idLength === 0 || RECORD_HEADER_LENGTH + idLength > length) {
      throw new IsoFormatError(`directory ${label(path)} has a record whose name overruns it`);
    }
    if (offset === 0 && !isDot(record)) {
      throw new IsoFormatError(`directory ${label(path)} does not start with its "." record`);
    }
    yield record;
    offset += length;
  }
}

function isDot(record: Buffer): boolean {
  return u8(record, RecordField.identifierLength) === 1 && u8(record, RECORD_HEADER_LENGTH) === 0;
}

function isDotOrDotDot(record: Buffer): boolean {
  return u8(record, RecordField.identifierLength) === 1 && u8(record, RECORD_HEADER_LENGTH) <= 1;
}

function recordName(walk: Walk, record: Buffer): string {
  const identifier = record.subarray(
    RECORD_HEADER_LENGTH,
    RECORD_HEADER_LENGTH + u8(record, RecordField.identifierLength),
  );
  let name: string;
  if (walk.naming === 'joliet') {
    name = withoutVersion(decodeUcs2(identifier));
  } else {
    const rockRidge = walk.naming === 'rock-ridge' ? rockRidgeName(walk, record) : undefined;
    name = rockRidge ?? withoutVersion(identifier.toString('latin1')).toLowerCase();
  }
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0')) {
    throw new IsoFormatError(`a directory record carries the unusable name ${label(name)}`);
  }
  return name;
}

/** "USER_DAT.;1" → "USER_DAT", "FILE.TXT;1" → "FILE.TXT": drop the version, then an empty extension's dot. */
function withoutVersion(identifier: string): string {
  const versionless = identifier.replace(/;\d*$/, '');
  return versionless !== identifier && versionless.endsWith('.') ? versionless.slice(0, -1) : versionless;
}

function decodeUcs2(identifier: Buffer): string {
  if (identifier.length % 2 !== 0) {
    throw new IsoFormatError('a Joliet name has an odd number of bytes');
  }
  return Buffer.from(identifier).swap16().toString('utf16le');
}

function rockRidgeName(walk: Walk, record: Buffer): string | undefined {
  const parts: Buffer[] = [];
  let length = 0;
  for (const entry of suspEntries(walk, systemUseArea(record, walk.suspSkip))) {
    if (latin1(entry, 0, 2) !== 'NM' || entry.length < SUSP_HEADER_LENGTH + 1) {
      continue;
    }
    const flags = u8(entry, SUSP_HEADER_LENGTH);
    if ((flags & NM_CURRENT_OR_PARENT) !== 0) {
      continue;
    }
    const part = entry.subarray(SUSP_HEADER_LENGTH + 1);
    length += part.length;
    if (length > MAX_NAME_BYTES) {
      throw new IsoFormatError(`a Rock Ridge name is longer than ${MAX_NAME_BYTES} bytes`);
    }
    parts.push(part);
    if ((flags & NM_CONTINUE) === 0) {
      break;
    }
  }
  return parts.length === 0 ? undefined : Buffer.concat(parts).toString('utf8');
}

/** The System Use area: after the name and its even-alignment padding, minus the SP-declared skip. */
function systemUseArea(record: Buffer, skip: number): Buffer {
  const idLength = u8(record, RecordField.identifierLength);
  const start = RECORD_HEADER_LENGTH + idLength + (idLength % 2 === 0 ? 1 : 0) + skip;
  return record.subarray(Math.min(start, record.length));
}

/** SUSP entries of one record, following "CE" continuation areas (bounded) and stopping at "ST". */
function* suspEntries(walk: Walk, firstArea: Buffer): Generator<Buffer> {
  let area: Buffer | undefined = firstArea;
  for (let hops = 0; area !== undefined; hops += 1) {
    if (hops > MAX_CONTINUATIONS) {
      throw new IsoFormatError(`a record chains more than ${MAX_CONTINUATIONS} SUSP continuation areas`);
    }
    let next: Buffer | undefined;
    let offset = 0;
    while (offset + SUSP_HEADER_LENGTH <= area.length) {
      const length = u8(area, offset + 2);
      if (length < SUSP_HEADER_LENGTH) {
        break; // padding, or garbage that cannot be an entry: either way, nothing more to read
      }
      if (offset + length > area.length) {
        throw new IsoFormatError('a SUSP entry runs past the end of its System Use area');
      }
      const entry = area.subarray(offset, offset + length);
      const signature = latin1(entry, 0, 2);
      if (signature === 'ST') {
        break;
      }
      if (signature === 'CE') {
        next = continuationArea(walk, entry);
      } else {
        yield entry;
      }
      offset += length;
    }
    area = next;
  }
}

function continuationArea(walk: Walk, entry: Buffer): Buffer {
  const block = u32le(entry, 4);
  const offset = u32le(entry, 12);
  const length = u32le(entry, 20);
  const area = region(walk.image, block * SECTOR_SIZE + offset, length, 'a SUSP continuation area');
  consume(walk, length);
  return area;
}

function consume(walk: Walk, bytes: number): void {
  walk.consumed += bytes;
  if (walk.consumed > walk.image.length) {
    throw new IsoFormatError(
      'directories, files or continuation areas overlap: together they are larger than the image',
    );
  }
}

/** A bounds-checked view: the only way this reader turns an offset from the image into bytes. */
function region(image: Buffer, start: number, length: number, what: string): Buffer {
  if (start + length > image.length) {
    throw new IsoFormatError(
      `${what} lies past the end of the image (bytes ${start}..${start + length} of ${image.length})`,
    );
  }
  return image.subarray(start, start + length);
}

function u8(bytes: Uint8Array, offset: number): number {
  const value = bytes[offset];
  if (value === undefined) {
    throw new IsoFormatError(`structure truncated: byte ${offset} of ${bytes.length} is missing`);
  }
  return value;
}

function u16le(bytes: Uint8Array, offset: number): number {
  return u8(bytes, offset) | (u8(bytes, offset + 1) << 8);
}

/** Only the little-endian half of ISO 9660's both-endian fields is read, as Linux does. */
function u32le(bytes: Uint8Array, offset: number): number {
  return (
    (u8(bytes, offset) | (u8(bytes, offset + 1) << 8) | (u8(bytes, offset + 2) << 16)) +
    u8(bytes, offset + 3) * 2 ** 24
  );
}

function latin1(bytes: Buffer, offset: number, length: number): string {
  return bytes.toString('latin1', offset, offset + length);
}

function label(name: string): string {
  return JSON.stringify(name === '' ? '/' : name);
}
