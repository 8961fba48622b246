/**
 * Writes a small ISO 9660 image with one flat root directory, carrying both Rock Ridge (for Linux, which
 * prefers it) and Joliet (for everything else), so that the original file names survive whichever
 * hierarchy a reader picks. Built for cloud-init NoCloud seeds; not a general-purpose mastering tool.
 */

export interface Iso9660File {
  name: string;
  /** Strings are stored as UTF-8. */
  data: Uint8Array | string;
}

export interface Iso9660ImageOptions {
  volumeId: string;
  files: readonly Iso9660File[];
  /** Stamped on every descriptor and record; defaults to now. Fix it to get byte-identical images. */
  createdAt?: Date;
}

export type Iso9660ErrorCode =
  'INVALID_VOLUME_ID' | 'INVALID_FILE_NAME' | 'DUPLICATE_FILE_NAME' | 'INVALID_DATE' | 'IMAGE_TOO_LARGE';

export class Iso9660Error extends Error {
  override readonly name = 'Iso9660Error';

  constructor(
    readonly code: Iso9660ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const SECTOR_SIZE = 2048;
const SYSTEM_AREA_SECTORS = 16;
const MAX_VOLUME_ID_LENGTH = 32;
const JOLIET_VOLUME_ID_CHARS = 16;
const MAX_NAME_LENGTH = 64;
const MAX_IMAGE_BYTES = 100 * 1024 * 1024;
const MAX_RECORD_LENGTH = 255;
const ROOT_RECORD_LENGTH = 34;
const PATH_TABLE_LENGTH = 10;
const PRIMARY_BASE_LENGTH = 8;
const PRIMARY_EXTENSION_LENGTH = 3;
const FILE_MODE = 0o100444;
const DIRECTORY_MODE = 0o40555;
const FLAG_DIRECTORY = 0x02;
const STANDARD_ID = 'CD001';
const DESCRIPTOR_PRIMARY = 1;
const DESCRIPTOR_SUPPLEMENTARY = 2;
const DESCRIPTOR_TERMINATOR = 255;
const RR_FLAG_PX = 0x01;
const RR_FLAG_NM = 0x08;
const JOLIET_LEVEL_3_ESCAPE = '%/E';
const ROCK_RIDGE_EXTENSION_ID = 'RRIP_1991A';
const ROCK_RIDGE_DESCRIPTION = 'ROCK RIDGE 1.10: POSIX FILE NAMES AND MODES';
const ROCK_RIDGE_SOURCE = 'IEEE P1282 / RRIP 1.10';

/**
 * The fixed sectors: system area, primary and Joliet descriptors, terminator, then an L and an M path table
 * for each hierarchy (each table is one root entry, far below a sector). Directories and files follow.
 */
const Sector = {
  PrimaryDescriptor: SYSTEM_AREA_SECTORS,
  JolietDescriptor: SYSTEM_AREA_SECTORS + 1,
  Terminator: SYSTEM_AREA_SECTORS + 2,
  PrimaryPathTableL: SYSTEM_AREA_SECTORS + 3,
  JolietPathTableL: SYSTEM_AREA_SECTORS + 5,
  FirstDirectory: SYSTEM_AREA_SECTORS + 7,
} as const;

/** Byte offsets of the volume descriptor fields written here (ECMA-119 8.4; Joliet reuses them). */
const DescriptorField = {
  type: 0,
  standardId: 1,
  version: 6,
  systemId: 8,
  volumeId: 40,
  volumeSpaceSize: 80,
  escapeSequences: 88,
  volumeSetSize: 120,
  volumeSequenceNumber: 124,
  logicalBlockSize: 128,
  pathTableSize: 132,
  pathTableL: 140,
  pathTableM: 148,
  rootRecord: 156,
  creationDate: 813,
  modificationDate: 830,
  expirationDate: 847,
  effectiveDate: 864,
  fileStructureVersion: 881,
} as const;

/** Volume set, publisher, preparer, application, copyright, abstract and bibliographic: left blank. */
const BLANK_TEXT_FIELDS = [
  [190, 128],
  [318, 128],
  [446, 128],
  [574, 128],
  [702, 37],
  [739, 37],
  [776, 37],
] as const;

/** Byte offsets within a directory record (ECMA-119 9.1). */
const RecordField = {
  length: 0,
  extent: 2,
  dataLength: 10,
  recordedAt: 18,
  flags: 25,
  volumeSequenceNumber: 28,
  identifierLength: 32,
  identifier: 33,
} as const;

/** Joliet forbids these (and control characters) in names; rejected so that every hierarchy agrees. */
const JOLIET_FORBIDDEN = new Set(['*', '/', ':', ';', '?', '\\']);
const FIRST_PRINTABLE = 0x20;
const FIRST_SURROGATE = 0xd800;
const LAST_SURROGATE = 0xdfff;
const VOLUME_ID_PATTERN = /^[A-Za-z0-9_]+$/;
const D_CHARACTER = /^[A-Z0-9_]$/;

interface Entry {
  name: string;
  data: Uint8Array;
  primaryIdentifier: string;
  extent: number;
}

interface DirectoryLayout {
  extent: number;
  sectors: number;
  /** Record offsets from the start of the directory, after "." and "..". */
  recordOffsets: number[];
}

const PLACEHOLDER_LAYOUT: DirectoryLayout = { extent: 0, sectors: 1, recordOffsets: [] };

/** Builds the image in one allocation; throws {@link Iso9660Error} before allocating if the input is bad. */
export function buildIso9660Image(options: Iso9660ImageOptions): Buffer {
  checkVolumeId(options.volumeId);
  const createdAt = options.createdAt ?? new Date();
  checkDate(createdAt);
  const entries = toEntries(options.files);
  const recordedAt = recordDate(createdAt);

  const primaryRecords = entries.map((entry) => primaryFileRecord(entry, recordedAt));
  const jolietOrder = [...entries].sort((a, b) => compareCodeUnits(a.name, b.name));
  const jolietRecords = jolietOrder.map((entry) => jolietFileRecord(entry, recordedAt));
  // Record lengths do not depend on extents, so placeholder layouts are enough to measure "." and "..".
  const primaryDot = rockRidgeDotRecords(PLACEHOLDER_LAYOUT, recordedAt).map(lengthOf);
  const jolietDot = plainDotRecords(PLACEHOLDER_LAYOUT, recordedAt).map(lengthOf);

  const primaryDir = layOutDirectory(Sector.FirstDirectory, [...primaryDot, ...primaryRecords.map(lengthOf)]);
  const jolietDir = layOutDirectory(primaryDir.extent + primaryDir.sectors, [
    ...jolietDot,
    ...jolietRecords.map(lengthOf),
  ]);
  const totalSectors = allocateExtents(entries, jolietDir.extent + jolietDir.sectors);
  if (totalSectors * SECTOR_SIZE > MAX_IMAGE_BYTES) {
    throw new Iso9660Error(
      'IMAGE_TOO_LARGE',
      `ISO image would be ${totalSectors * SECTOR_SIZE} bytes; the limit is ${MAX_IMAGE_BYTES}`,
    );
  }

  const image = Buffer.alloc(totalSectors * SECTOR_SIZE);
  const volume: VolumeFacts = { volumeId: options.volumeId, totalSectors, createdAt };
  writeDescriptor(image, { ...volume, joliet: false, root: primaryDir });
  writeDescriptor(image, { ...volume, joliet: true, root: jolietDir });
  writeTerminator(image);
  writePathTables(image, Sector.PrimaryPathTableL, primaryDir.extent);
  writePathTables(image, Sector.JolietPathTableL, jolietDir.extent);
  writeDirectory(image, primaryDir, rockRidgeDotRecords(primaryDir, recordedAt), primaryRecords, entries);
  writeDirectory(image, jolietDir, plainDotRecords(jolietDir, recordedAt), jolietRecords, jolietOrder);
  for (const entry of entries) {
    image.set(entry.data, entry.extent * SECTOR_SIZE);
  }
  return image;
}

function checkVolumeId(volumeId: string): void {
  if (volumeId.length === 0 || volumeId.length > MAX_VOLUME_ID_LENGTH) {
    throw new Iso9660Error(
      'INVALID_VOLUME_ID',
      `volume id must be 1 to ${MAX_VOLUME_ID_LENGTH} characters, got ${volumeId.length}`,
    );
  }
  if (!VOLUME_ID_PATTERN.test(volumeId)) {
    throw new Iso9660Error(
      'INVALID_VOLUME_ID',
      `volume id ${JSON.stringify(volumeId)} may only contain letters, digits and "_"`,
    );
  }
}

function checkDate(date: Date): void {
  const year = date.getUTCFullYear();
  // Directory records store the year as an offset from 1900 in one byte.
  if (Number.isNaN(date.getTime()) || year < 1900 || year > 1900 + 255) {
    throw new Iso9660Error('INVALID_DATE', 'createdAt must be a valid date between 1900 and 2155');
  }
}

function toEntries(files: readonly Iso9660File[]): Entry[] {
  const seen = new Set<string>();
  const taken = new Set<string>();
  const entries = files.map((file): Entry => {
    checkName(file.name);
    if (seen.has(file.name)) {
      throw new Iso9660Error('DUPLICATE_FILE_NAME', `file name ${JSON.stringify(file.name)} appears twice`);
    }
    seen.add(file.name);
    const data = typeof file.data === 'string' ? Buffer.from(file.data, 'utf8') : file.data;
    return { name: file.name, data, primaryIdentifier: uniquePrimaryIdentifier(file.name, taken), extent: 0 };
  });
  // ECMA-119 orders a directory's records by identifier; all characters used sort above the 0x20 padding.
  return entries.sort((a, b) => compareCodeUnits(a.primaryIdentifier, b.primaryIdentifier));
}

function checkName(name: string): void {
  const problem = nameProblem(name);
  if (problem !== undefined) {
    throw new Iso9660Error('INVALID_FILE_NAME', `file name ${JSON.stringify(name)} ${problem}`);
  }
}

function nameProblem(name: string): string | undefined {
  if (name.length === 0) {
    return 'is empty';
  }
  if (name.length > MAX_NAME_LENGTH) {
    return `is longer than ${MAX_NAME_LENGTH} characters (the Joliet limit)`;
  }
  if (name === '.' || name === '..') {
    return 'is reserved for directories';
  }
  for (const char of name) {
    const code = char.codePointAt(0) ?? 0;
    if (code < FIRST_PRINTABLE || JOLIET_FORBIDDEN.has(char)) {
      return 'contains "/", NUL, another control character or one of * : ; ? \\';
    }
    // Lone surrogates and characters beyond U+FFFF: Joliet stores UCS-2, which has room for neither.
    if (code > 0xffff || (code >= FIRST_SURROGATE && code <= LAST_SURROGATE)) {
      return 'contains a character that UCS-2 (Joliet) cannot hold';
    }
  }
  return undefined;
}

/**
 * Maps a name to an ISO 9660 level-1 identifier ("USER_DAT.;1"): readers that ignore both extensions
 * still see every file. Collisions get a numeric tail, first come first served, so output is stable.
 */
function uniquePrimaryIdentifier(name: string, taken: Set<string>): string {
  const dot = name.lastIndexOf('.');
  const base = toDCharacters(dot > 0 ? name.slice(0, dot) : name).slice(0, PRIMARY_BASE_LENGTH);
  const extension = dot > 0 ? toDCharacters(name.slice(dot + 1)).slice(0, PRIMARY_EXTENSION_LENGTH) : '';
  let candidate = `${base}.${extension}`;
  for (let counter = 1; taken.has(candidate); counter += 1) {
    const tail = String(counter);
    candidate = `${base.slice(0, PRIMARY_BASE_LENGTH - tail.length)}${tail}.${extension}`;
  }
  taken.add(candidate);
  return `${candidate};1`;
}

function toDCharacters(text: string): string {
  return Array.from(text, (char) => {
    const upper = char.toUpperCase();
    return D_CHARACTER.test(upper) ? upper : '_';
  }).join('');
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function allocateExtents(entries: Entry[], firstSector: number): number {
  let next = firstSector;
  for (const entry of entries) {
    // An empty file owns no sector; 0 is what readers expect for "nothing to read".
    entry.extent = entry.data.length === 0 ? 0 : next;
    next += Math.ceil(entry.data.length / SECTOR_SIZE);
  }
  return next;
}

/** Packs records into sectors: ECMA-119 forbids a record from crossing a sector boundary. */
function layOutDirectory(extent: number, recordLengths: number[]): DirectoryLayout {
  const offsets: number[] = [];
  let offset = 0;
  for (const recordLength of recordLengths) {
    const room = SECTOR_SIZE - (offset % SECTOR_SIZE);
    if (recordLength > room) {
      offset += room;
    }
    offsets.push(offset);
    offset += recordLength;
  }
  return { extent, sectors: Math.max(1, Math.ceil(offset / SECTOR_SIZE)), recordOffsets: offsets.slice(2) };
}

function lengthOf(record: Uint8Array): number {
  return record.length;
}

function writeDirectory(
  image: Buffer,
  layout: DirectoryLayout,
  dotRecords: readonly [Buffer, Buffer],
  fileRecords: Buffer[],
  entries: Entry[],
): void {
  const start = layout.extent * SECTOR_SIZE;
  const [dot, dotDot] = dotRecords;
  image.set(dot, start);
  image.set(dotDot, start + dot.length);
  fileRecords.forEach((record, index) => {
    const entry = entries[index];
    const offset = layout.recordOffsets[index];
    if (entry === undefined || offset === undefined) {
      throw new Error('directory layout and records disagree');
    }
    // File records were built before extents were allocated; their lengths did not depend on them.
    setExtent(record, entry.extent, entry.data.length);
    image.set(record, start + offset);
  });
}

// --- Directory records -------------------------------------------------------------------------------

interface RecordFields {
  identifier: Uint8Array;
  isDirectory: boolean;
  recordedAt: Uint8Array;
  systemUse?: Uint8Array;
  extent?: number;
  dataLength?: number;
}

function directoryRecord(fields: RecordFields): Buffer {
  const systemUse = fields.systemUse ?? new Uint8Array(0);
  const idLength = fields.identifier.length;
  // A padding byte keeps the System Use area on an even offset; a final one keeps the record length even.
  const systemUseOffset = RecordField.identifier + idLength + (idLength % 2 === 0 ? 1 : 0);
  const unpadded = systemUseOffset + systemUse.length;
  const recordLength = unpadded + (unpadded % 2);
  if (recordLength > MAX_RECORD_LENGTH) {
    throw new Iso9660Error(
      'INVALID_FILE_NAME',
      `a directory record would be ${recordLength} bytes (limit ${MAX_RECORD_LENGTH}); shorten the file name`,
    );
  }
  const record = Buffer.alloc(recordLength);
  record[RecordField.length] = recordLength;
  setExtent(record, fields.extent ?? 0, fields.dataLength ?? 0);
  record.set(fields.recordedAt, RecordField.recordedAt);
  record[RecordField.flags] = fields.isDirectory ? FLAG_DIRECTORY : 0;
  writeBoth16(record, RecordField.volumeSequenceNumber, 1);
  record[RecordField.identifierLength] = idLength;
  record.set(fields.identifier, RecordField.identifier);
  record.set(systemUse, systemUseOffset);
  return record;
}

function setExtent(record: Buffer, extent: number, dataLength: number): void {
  writeBoth32(record, RecordField.extent, extent);
  writeBoth32(record, RecordField.dataLength, dataLength);
}

function primaryFileRecord(entry: Entry, recordedAt: Uint8Array): Buffer {
  return directoryRecord({
    identifier: Buffer.from(entry.primaryIdentifier, 'ascii'),
    isDirectory: false,
    recordedAt,
    systemUse: Buffer.concat([
      susp('RR', [RR_FLAG_PX | RR_FLAG_NM]),
      posixAttributes(FILE_MODE, 1),
      susp('NM', Buffer.concat([Buffer.of(0), Buffer.from(entry.name, 'utf8')])),
    ]),
  });
}

function jolietFileRecord(entry: Entry, recordedAt: Uint8Array): Buffer {
  return directoryRecord({ identifier: ucs2(entry.name), isDirectory: false, recordedAt });
}

/**
 * The root's "." record opens the Rock Ridge world: SUSP's SP entry must come first, and Linux only
 * trusts the Rock Ridge entries after it has seen the ER entry naming the extension.
 */
function rockRidgeDotRecords(root: DirectoryLayout, recordedAt: Uint8Array): [Buffer, Buffer] {
  const common = {
    isDirectory: true,
    recordedAt,
    extent: root.extent,
    dataLength: root.sectors * SECTOR_SIZE,
  };
  const attributes = Buffer.concat([susp('RR', [RR_FLAG_PX]), posixAttributes(DIRECTORY_MODE, 2)]);
  const dot = directoryRecord({
    ...common,
    identifier: Buffer.of(0),
    systemUse: Buffer.concat([susp('SP', [0xbe, 0xef, 0]), attributes, extensionReference()]),
  });
  const dotDot = directoryRecord({ ...common, identifier: Buffer.of(1), systemUse: attributes });
  return [dot, dotDot];
}

function plainDotRecords(root: DirectoryLayout, recordedAt: Uint8Array): [Buffer, Buffer] {
  const common = {
    isDirectory: true,
    recordedAt,
    extent: root.extent,
    dataLength: root.sectors * SECTOR_SIZE,
  };
  return [
    directoryRecord({ ...common, identifier: Buffer.of(0) }),
    directoryRecord({ ...common, identifier: Buffer.of(1) }),
  ];
}

/** One SUSP entry: two-letter signature, total length, version 1, then the payload. */
function susp(signature: string, payload: ArrayLike<number>): Buffer {
  const entry = Buffer.alloc(4 + payload.length);
  entry.write(signature, 0, 'ascii');
  entry[2] = entry.length;
  entry[3] = 1;
  entry.set(payload, 4);
  return entry;
}

/** RRIP 1.10's PX: mode, link count, uid and gid, each both-endian. */
function posixAttributes(mode: number, links: number): Buffer {
  const payload = Buffer.alloc(32);
  writeBoth32(payload, 0, mode);
  writeBoth32(payload, 8, links);
  return susp('PX', payload);
}

function extensionReference(): Buffer {
  const id = Buffer.from(ROCK_RIDGE_EXTENSION_ID, 'ascii');
  const description = Buffer.from(ROCK_RIDGE_DESCRIPTION, 'ascii');
  const source = Buffer.from(ROCK_RIDGE_SOURCE, 'ascii');
  const extensionVersion = 1;
  return susp(
    'ER',
    Buffer.concat([
      Buffer.of(id.length, description.length, source.length, extensionVersion),
      id,
      description,
      source,
    ]),
  );
}

// --- Volume descriptors and path tables ------------------------------------------------------------

interface VolumeFacts {
  volumeId: string;
  totalSectors: number;
  createdAt: Date;
}

interface DescriptorFacts extends VolumeFacts {
  joliet: boolean;
  root: DirectoryLayout;
}

function writeDescriptor(image: Buffer, facts: DescriptorFacts): void {
  const sector = facts.joliet ? Sector.JolietDescriptor : Sector.PrimaryDescriptor;
  const pathTableL = facts.joliet ? Sector.JolietPathTableL : Sector.PrimaryPathTableL;
  const d = image.subarray(sector * SECTOR_SIZE, (sector + 1) * SECTOR_SIZE);
  const text = facts.joliet ? writeUcs2Field : writeAsciiField;
  d[DescriptorField.type] = facts.joliet ? DESCRIPTOR_SUPPLEMENTARY : DESCRIPTOR_PRIMARY;
  d.write(STANDARD_ID, DescriptorField.standardId, 'ascii');
  d[DescriptorField.version] = 1;
  text(d, DescriptorField.systemId, 32, '');
  // Case is kept as given (like genisoimage -V cidata): blkid and cloud-init match the label that way.
  const volumeId = facts.joliet ? facts.volumeId.slice(0, JOLIET_VOLUME_ID_CHARS) : facts.volumeId;
  text(d, DescriptorField.volumeId, 32, volumeId);
  writeBoth32(d, DescriptorField.volumeSpaceSize, facts.totalSectors);
  if (facts.joliet) {
    d.write(JOLIET_LEVEL_3_ESCAPE, DescriptorField.escapeSequences, 'ascii');
  }
  writeBoth16(d, DescriptorField.volumeSetSize, 1);
  writeBoth16(d, DescriptorField.volumeSequenceNumber, 1);
  writeBoth16(d, DescriptorField.logicalBlockSize, SECTOR_SIZE);
  writeBoth32(d, DescriptorField.pathTableSize, PATH_TABLE_LENGTH);
  d.writeUInt32LE(pathTableL, DescriptorField.pathTableL);
  d.writeUInt32BE(pathTableL + 1, DescriptorField.pathTableM);
  const root = directoryRecord({
    identifier: Buffer.of(0),
    isDirectory: true,
    recordedAt: recordDate(facts.createdAt),
    extent: facts.root.extent,
    dataLength: facts.root.sectors * SECTOR_SIZE,
  });
  if (root.length !== ROOT_RECORD_LENGTH) {
    throw new Error(`the root directory record must be ${ROOT_RECORD_LENGTH} bytes`);
  }
  d.set(root, DescriptorField.rootRecord);
  for (const [offset, size] of BLANK_TEXT_FIELDS) {
    text(d, offset, size, '');
  }
  const stamp = descriptorDate(facts.createdAt);
  d.set(stamp, DescriptorField.creationDate);
  d.set(stamp, DescriptorField.modificationDate);
  d.set(unspecifiedDescriptorDate(), DescriptorField.expirationDate);
  d.set(unspecifiedDescriptorDate(), DescriptorField.effectiveDate);
  d[DescriptorField.fileStructureVersion] = 1;
}

function writeTerminator(image: Buffer): void {
  const offset = Sector.Terminator * SECTOR_SIZE;
  image[offset + DescriptorField.type] = DESCRIPTOR_TERMINATOR;
  image.write(STANDARD_ID, offset + DescriptorField.standardId, 'ascii');
  image[offset + DescriptorField.version] = 1;
}

/** Writes the L table at `sectorL` and the M table right after it; one entry, the root, its own parent. */
function writePathTables(image: Buffer, sectorL: number, rootExtent: number): void {
  const l = sectorL * SECTOR_SIZE;
  const m = (sectorL + 1) * SECTOR_SIZE;
  image[l] = 1;
  image.writeUInt32LE(rootExtent, l + 2);
  image.writeUInt16LE(1, l + 6);
  image[m] = 1;
  image.writeUInt32BE(rootExtent, m + 2);
  image.writeUInt16BE(1, m + 6);
}

// --- Field encodings -----------------------------------------------------------------------------------

function writeBoth16(target: Buffer, offset: number, value: number): void {
  target.writeUInt16LE(value, offset);
  target.writeUInt16BE(value, offset + 2);
}

function writeBoth32(target: Buffer, offset: number, value: number): void {
  target.writeUInt32LE(value, offset);
  target.writeUInt32BE(value, offset + 4);
}

function writeAsciiField(target: Buffer, offset: number, size: number, value: string): void {
  target.fill(0x20, offset, offset + size);
  target.write(value, offset, size, 'ascii');
}

/** Joliet text fields hold UCS-2 big-endian, padded with U+0020; an odd-sized field ends in a zero byte. */
function writeUcs2Field(target: Buffer, offset: number, size: number, value: string): void {
  const chars = Math.floor(size / 2);
  const padded = ucs2(value.padEnd(chars, ' ').slice(0, chars));
  target.set(padded, offset);
}

function ucs2(text: string): Buffer {
  return Buffer.from(text, 'utf16le').swap16();
}

function recordDate(date: Date): Uint8Array {
  // Seven bytes: years since 1900, month, day, hour, minute, second, then the UTC offset (we write UTC).
  return Uint8Array.of(
    date.getUTCFullYear() - 1900,
    date.getUTCMonth() + 1,
    date.getUTCDate(),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
    0,
  );
}

/** Seventeen bytes: "YYYYMMDDHHMMSScc" in ASCII digits, then the UTC offset (we write UTC). */
function descriptorDate(date: Date): Buffer {
  const two = (value: number): string => String(value).padStart(2, '0');
  const digits =
    String(date.getUTCFullYear()).padStart(4, '0') +
    two(date.getUTCMonth() + 1) +
    two(date.getUTCDate()) +
    two(date.getUTCHours()) +
    two(date.getUTCMinutes()) +
    two(date.getUTCSeconds()) +
    two(Math.floor(date.getUTCMilliseconds() / 10));
  return Buffer.concat([Buffer.from(digits, 'ascii'), Buffer.of(0)]);
}

function unspecifiedDescriptorDate(): Buffer {
  return Buffer.concat([Buffer.from('0'.repeat(16), 'ascii'), Buffer.of(0)]);
}
