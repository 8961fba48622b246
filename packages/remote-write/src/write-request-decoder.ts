import { isUtf8 } from 'node:buffer';
import { isLabelName, isMetricName } from './label-name.js';
import { RemoteWriteError, type RemoteWriteErrorCode } from './remote-write-error.js';
import { uncompressBlock } from './snappy-block.js';
import { ByteTable } from './byte-table.js';
import type { DecodedWriteRequest, Label, Sample, TimeSeries } from './types.js';

const MiB = 1024 * 1024;

export interface DecodeLimits {
  /** Largest body accepted as sent (default 8 MiB). */
  readonly maxCompressedBytes?: number;
  /** Largest body accepted once decompressed, checked against snappy's preamble first (default 32 MiB). */
  readonly maxDecompressedBytes?: number;
  /** Most series in one request (default: only the size limits apply). */
  readonly maxSeries?: number;
  /** Most float samples in one request (default: only the size limits apply). */
  readonly maxSamples?: number;
}

export const DEFAULT_DECODE_LIMITS: Readonly<Required<DecodeLimits>> = {
  maxCompressedBytes: 8 * MiB,
  maxDecompressedBytes: 32 * MiB,
  maxSeries: Infinity,
  maxSamples: Infinity,
};

/**
 * Timestamps accepted, in milliseconds either side of the epoch: the range of a JavaScript `Date`, which
 * every millisecond count in it represents exactly as a double.
 */
export const MAX_TIMESTAMP_MS = 8_640_000_000_000_000;

const MALFORMED: RemoteWriteErrorCode = 'REMOTE_WRITE_MALFORMED';
const INVALID: RemoteWriteErrorCode = 'REMOTE_WRITE_INVALID';
const TOO_LARGE: RemoteWriteErrorCode = 'REMOTE_WRITE_TOO_LARGE';

const VARINT = 0;
const I64 = 1;
const LEN = 2;
const I32 = 5;
const WIRE_TYPE_NAMES = ['varint', 'i64', 'length-delimited', 'group start', 'group end', 'i32', '6', '7'];

/** Tags (field number << 3 | wire type) of prompb's remote.proto and types.proto fields. */
const REQUEST_TIMESERIES = (1 << 3) | LEN;
const REQUEST_METADATA = (3 << 3) | LEN;
const SERIES_LABELS = (1 << 3) | LEN;
const SERIES_SAMPLES = (2 << 3) | LEN;
const SERIES_EXEMPLARS = (3 << 3) | LEN;
const SERIES_HISTOGRAMS = (4 << 3) | LEN;
const LABEL_NAME = (1 << 3) | LEN;
const LABEL_VALUE = (2 << 3) | LEN;
const SAMPLE_VALUE = (1 << 3) | I64;
const SAMPLE_TIMESTAMP = (2 << 3) | VARINT;

/** A message's known fields by number (index), so that one sent with the wrong wire type is refused. */
interface KnownField {
  readonly name: string;
  readonly tag: number;
}
type KnownFields = readonly (KnownField | undefined)[];

const REQUEST_FIELDS: KnownFields = [
  undefined,
  { name: 'timeseries', tag: REQUEST_TIMESERIES },
  undefined,
  { name: 'metadata', tag: REQUEST_METADATA },
];
const SERIES_FIELDS: KnownFields = [
  undefined,
  { name: 'labels', tag: SERIES_LABELS },
  { name: 'samples', tag: SERIES_SAMPLES },
  { name: 'exemplars', tag: SERIES_EXEMPLARS },
  { name: 'histograms', tag: SERIES_HISTOGRAMS },
];
const LABEL_FIELDS: KnownFields = [
  undefined,
  { name: 'name', tag: LABEL_NAME },
  { name: 'value', tag: LABEL_VALUE },
];
const SAMPLE_FIELDS: KnownFields = [
  undefined,
  { name: 'value', tag: SAMPLE_VALUE },
  { name: 'timestamp', tag: SAMPLE_TIMESTAMP },
];

const METRIC_NAME_LABEL = '__name__';
const TWO_TO_32 = 0x1_0000_0000;
const QUOTED_TEXT_MAX = 64;

type Part = 'labels' | 'samples' | 'exemplars' | 'histograms' | undefined;

function resolveLimits(limits: DecodeLimits): Readonly<Required<DecodeLimits>> {
  const resolved = { ...DEFAULT_DECODE_LIMITS, ...limits };
  for (const [key, value] of Object.entries(resolved))
    if (!(value === Infinity || (Number.isSafeInteger(value) && value >= 0)))
      throw new RangeError(`decodeWriteRequest: ${key} must be a non-negative integer, got ${value}`);
  return resolved;
}

/**
 * Decodes a Prometheus remote-write 1.0 body: a snappy block holding a protobuf `prometheus.WriteRequest`.
 * All or nothing: any problem throws a `RemoteWriteError` that says where it is. Labels come back sorted
 * by name, without empty-valued ones (Prometheus treats those as absent); metadata and exemplars are
 * ignored; native histograms are dropped and counted in `skippedHistograms`.
 */
export function decodeWriteRequest(body: Uint8Array, limits: DecodeLimits = {}): DecodedWriteRequest {
  const resolved = resolveLimits(limits);
  const bytes = uncompressBlock(body, resolved.maxCompressedBytes, resolved.maxDecompressedBytes);
  return new WriteRequestParser(bytes, resolved).parse();
}

/**
 * A protobuf reader for just these four messages. Besides the objects it returns it allocates almost
 * nothing: strings come straight from the buffer, a label's bytes seen before give back the same `Label`
 * object, and where it is (series, part, index) is kept in plain fields, made into a path only to throw.
 */
class WriteRequestParser {
  private readonly buf: Buffer;
  private readonly view: DataView;
  private pos = 0;
  /** The halves of the last varint read (unsigned 32-bit each). */
  private lo = 0;
  private hi = 0;

  private seriesIndex = -1;
  private part: Part = undefined;
  private partIndex = 0;

  private sampleCount = 0;
  private skippedHistograms = 0;

  private readonly labels: ByteTable<Label>;
  private readonly names: ByteTable<string>;
  private readonly values: ByteTable<string>;
  /** Labels are immutable, so one object serves every series that sends the same label bytes. */
  private readonly makeLabel = (start: number, end: number): Label => {
    this.pos = start;
    return this.label(end);
  };
  private readonly makeName = (start: number, end: number): string => {
    if (!isLabelName(this.buf, start, end))
      this.fail(INVALID, start === end ? 'empty label name' : `invalid label name ${this.quote(start, end)}`);
    // A valid label name is ASCII, where latin1 and UTF-8 agree.
    return this.buf.toString('latin1', start, end);
  };
  private readonly makeValue = (start: number, end: number): string => {
    const buf = this.buf;
    for (let i = start; i < end; i++) {
      if ((buf[i] ?? 0) < 0x80) continue;
      if (!isUtf8(buf.subarray(start, end))) this.fail(INVALID, 'value is not valid UTF-8');
      return buf.toString('utf8', start, end);
    }
    return buf.toString('latin1', start, end);
  };

  constructor(
    bytes: Uint8Array,
    private readonly limits: Readonly<Required<DecodeLimits>>,
  ) {
    this.buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.labels = new ByteTable(bytes);
    this.names = new ByteTable(bytes);
    this.values = new ByteTable(bytes);
  }

  parse(): DecodedWriteRequest {
    const end = this.buf.length;
    const timeseries: TimeSeries[] = [];
    let index = 0;
    while (this.pos < end) {
      const tag = this.tag(end);
      if (tag !== REQUEST_TIMESERIES) {
        this.other(tag, end, REQUEST_FIELDS);
        continue;
      }
      this.seriesIndex = index++;
      if (index > this.limits.maxSeries)
        this.fail(TOO_LARGE, `over the limit of ${this.limits.maxSeries} series per request`);
      const series = this.series(this.messageEnd(end));
      if (series !== undefined) timeseries.push(series);
      this.seriesIndex = -1;
    }
    return { timeseries, skippedHistograms: this.skippedHistograms };
  }

  private series(end: number): TimeSeries | undefined {
    const labels: Label[] = [];
    const samples: Sample[] = [];
    let exemplars = 0;
    let histograms = 0;
    while (this.pos < end) {
      this.part = undefined;
      const tag = this.tag(end);
      switch (tag) {
        case SERIES_LABELS:
          this.at('labels', labels.length);
          labels.push(this.cachedLabel(this.messageEnd(end)));
          break;
        case SERIES_SAMPLES:
          this.at('samples', samples.length);
          if (++this.sampleCount > this.limits.maxSamples)
            this.fail(TOO_LARGE, `over the limit of ${this.limits.maxSamples} samples per request`);
          samples.push(this.sample(this.messageEnd(end)));
          break;
        case SERIES_EXEMPLARS:
          this.at('exemplars', exemplars++);
          this.skip(LEN, end);
          break;
        case SERIES_HISTOGRAMS:
          this.at('histograms', histograms++);
          this.skip(LEN, end);
          break;
        default:
          this.other(tag, end, SERIES_FIELDS);
      }
    }
    this.part = undefined;
    const checked = this.checkLabels(labels);
    this.skippedHistograms += histograms;
    if (samples.length > 0) return { labels: checked, samples };
    // Prometheus sends exemplars and histograms in series of their own, which carry no float sample.
    if (exemplars + histograms === 0) this.fail(INVALID, 'no samples');
    return undefined;
  }

  private cachedLabel(end: number): Label {
    const label = this.labels.get(this.pos, end, this.makeLabel);
    this.pos = end;
    return label;
  }

  private label(end: number): Label {
    let nameStart = 0;
    let nameEnd = 0;
    let valueStart = 0;
    let valueEnd = 0;
    while (this.pos < end) {
      const tag = this.tag(end);
      if (tag === LABEL_NAME) {
        nameEnd = this.messageEnd(end);
        nameStart = this.pos;
        this.pos = nameEnd;
      } else if (tag === LABEL_VALUE) {
        valueEnd = this.messageEnd(end);
        valueStart = this.pos;
        this.pos = valueEnd;
      } else {
        this.other(tag, end, LABEL_FIELDS);
      }
    }
    const name = this.names.get(nameStart, nameEnd, this.makeName);
    if (name === METRIC_NAME_LABEL && !isMetricName(this.buf, valueStart, valueEnd))
      this.fail(INVALID, `invalid metric name ${this.quote(valueStart, valueEnd)}`);
    return { name, value: this.values.get(valueStart, valueEnd, this.makeValue) };
  }

  private sample(end: number): Sample {
    let value = 0;
    let timestampMs = 0;
    while (this.pos < end) {
      const tag = this.tag(end);
      if (tag === SAMPLE_VALUE) {
        if (end - this.pos < 8) this.fail(MALFORMED, 'truncated double');
        // DataView keeps a NaN's payload, which is what marks a staleness marker.
        value = this.view.getFloat64(this.pos, true);
        this.pos += 8;
      } else if (tag === SAMPLE_TIMESTAMP) {
        timestampMs = this.timestamp(end);
      } else {
        this.other(tag, end, SAMPLE_FIELDS);
      }
    }
    return { value, timestampMs };
  }

  /**
   * Refuses duplicate names (naming the sender's index of the second one) and a missing `__name__`;
   * sorts labels the sender did not sort (as Prometheus' receiver does) and drops empty values.
   */
  private checkLabels(labels: Label[]): Label[] {
    let sorted = true;
    let named = false;
    let empty = false;
    let previous = '';
    for (const { name, value } of labels) {
      if (name <= previous) sorted = false;
      if (name === METRIC_NAME_LABEL) named = true;
      if (value === '') empty = true;
      previous = name;
    }
    if (!sorted) {
      const seen = new Set<string>();
      for (const [i, { name }] of labels.entries()) {
        if (seen.has(name)) {
          this.at('labels', i);
          this.fail(INVALID, `duplicate label name ${JSON.stringify(name)}`);
        }
        seen.add(name);
      }
      labels.sort((a, b) => (a.name < b.name ? -1 : 1));
    }
    if (!named) this.fail(INVALID, `no ${METRIC_NAME_LABEL} label`);
    return empty ? labels.filter((label) => label.value !== '') : labels;
  }

  private timestamp(end: number): number {
    this.varint(end);
    const value = (this.hi | 0) * TWO_TO_32 + this.lo;
    if (value > MAX_TIMESTAMP_MS || value < -MAX_TIMESTAMP_MS) {
      const exact = BigInt.asIntN(64, (BigInt(this.hi) << 32n) | BigInt(this.lo));
      this.fail(INVALID, `timestamp ${exact} ms is outside ±${MAX_TIMESTAMP_MS} ms`);
    }
    return value;
  }

  /** Reads a field tag, refusing field number 0 and tags past 32 bits. */
  private tag(end: number): number {
    const tag = this.uint(end);
    if (tag < 8 || tag >= TWO_TO_32) this.fail(MALFORMED, `invalid field tag ${tag}`);
    return tag;
  }

  /** Reads a length and returns where the field it announces ends. */
  private messageEnd(end: number): number {
    const length = this.uint(end);
    if (length > end - this.pos)
      this.fail(MALFORMED, `declares ${length} bytes but only ${end - this.pos} are left`);
    return this.pos + length;
  }

  /** A field this parser does not read: skipped if unknown or ignored, refused if known but mistyped. */
  private other(tag: number, end: number, known: KnownFields): void {
    const field = tag >>> 3;
    const wireType = tag & 7;
    const spec = known[field];
    if (spec !== undefined && spec.tag !== tag)
      this.fail(
        MALFORMED,
        `field ${field} (${spec.name}) has wire type ${WIRE_TYPE_NAMES[wireType] ?? wireType}, expected ${WIRE_TYPE_NAMES[spec.tag & 7] ?? ''}`,
      );
    this.skip(wireType, end);
  }

  private skip(wireType: number, end: number): void {
    switch (wireType) {
      case VARINT:
        this.varint(end);
        return;
      case I64:
      case I32: {
        const size = wireType === I64 ? 8 : 4;
        if (end - this.pos < size) this.fail(MALFORMED, `truncated ${size * 8}-bit field`);
        this.pos += size;
        return;
      }
      case LEN:
        this.pos = this.messageEnd(end);
        return;
      default:
        this.fail(MALFORMED, `unsupported wire type ${WIRE_TYPE_NAMES[wireType] ?? wireType}`);
    }
  }

  /** A varint as a number: exact up to 2^53, which is all a tag or a length can usefully be. */
  private uint(end: number): number {
    const byte = this.buf[this.pos] ?? 0x80;
    if (byte < 0x80 && this.pos < end) {
      this.pos++;
      return byte;
    }
    this.varint(end);
    return this.hi * TWO_TO_32 + this.lo;
  }

  /** Reads a varint of up to 64 bits into `lo` and `hi`; a tenth byte may only carry bit 63. */
  private varint(end: number): void {
    const buf = this.buf;
    let pos = this.pos;
    let lo = 0;
    let hi = 0;
    let byte = 0;
    // Bytes 0–4 carry bits 0–34: all of the low half, and bits 0–2 of the high half.
    for (let shift = 0; shift < 35; shift += 7) {
      if (pos >= end) this.fail(MALFORMED, 'truncated varint');
      byte = buf[pos++] ?? 0;
      lo |= (byte & 0x7f) << shift;
      if (shift === 28) hi = (byte & 0x7f) >>> 4;
      if (byte < 0x80) break;
    }
    // Bytes 5–9 carry bits 35–63.
    for (let shift = 3; byte >= 0x80; shift += 7) {
      if (pos >= end) this.fail(MALFORMED, 'truncated varint');
      byte = buf[pos++] ?? 0;
      if (shift === 31 && byte > 1)
        this.fail(MALFORMED, byte >= 0x80 ? 'varint longer than 10 bytes' : 'varint overflows 64 bits');
      hi |= (byte & 0x7f) << shift;
    }
    this.pos = pos;
    this.lo = lo >>> 0;
    this.hi = hi >>> 0;
  }

  private at(part: Part, index: number): void {
    this.part = part;
    this.partIndex = index;
  }

  private location(): string {
    if (this.seriesIndex < 0) return 'request';
    const series = `timeseries[${this.seriesIndex}]`;
    return this.part === undefined ? series : `${series}.${this.part}[${this.partIndex}]`;
  }

  private quote(start: number, end: number): string {
    const text = this.buf.toString('utf8', start, end);
    return JSON.stringify(text.length > QUOTED_TEXT_MAX ? `${text.slice(0, QUOTED_TEXT_MAX)}…` : text);
  }

  private fail(code: RemoteWriteErrorCode, description: string): never {
    throw new RemoteWriteError(code, this.location(), description);
  }
}
