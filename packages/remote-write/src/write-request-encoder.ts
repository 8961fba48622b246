import { compressSync } from 'snappy';
import { isStaleMarker, STALE_NAN_BITS } from './stale-marker.js';
import type { Label, Sample, WriteRequest } from './types.js';

const TWO_TO_32 = 0x1_0000_0000;

/** Tags (field number << 3 | wire type), as the decoder reads them. */
const REQUEST_TIMESERIES = 0x0a;
const SERIES_LABELS = 0x0a;
const SERIES_SAMPLES = 0x12;
const LABEL_NAME = 0x0a;
const LABEL_VALUE = 0x12;
const SAMPLE_VALUE = 0x09;
const SAMPLE_TIMESTAMP = 0x10;
/** A sample's value field: its tag and 8 bytes of double. */
const SAMPLE_VALUE_SIZE = 9;

/** A series measured before it is written: nested lengths come before their content. */
interface PlannedSeries {
  readonly labels: readonly Label[];
  /** UTF-8 byte lengths: each label's name then value. */
  readonly textLengths: readonly number[];
  readonly samples: readonly Sample[];
  readonly size: number;
}

/**
 * Encodes a remote-write 1.0 body: a protobuf `prometheus.WriteRequest`, snappy block-compressed. Labels
 * are sent sorted by name, as the specification requires of senders; empty-valued ones, which Prometheus
 * treats as absent, are left out; a staleness marker is always written with its exact bits.
 */
export function encodeWriteRequest(request: WriteRequest): Uint8Array {
  return compressSync(marshalWriteRequest(request));
}

/** The protobuf bytes `encodeWriteRequest` compresses. */
export function marshalWriteRequest(request: WriteRequest): Uint8Array {
  const planned = request.timeseries.map(planSeries);
  let size = 0;
  for (const series of planned) size += 1 + varintSize(series.size, 0) + series.size;
  const writer = new ProtoWriter(size);
  for (const series of planned) {
    writer.tag(REQUEST_TIMESERIES);
    writer.uint(series.size);
    writeSeries(writer, series);
  }
  return writer.bytes;
}

function planSeries(series: WriteRequest['timeseries'][number]): PlannedSeries {
  const labels = series.labels
    .filter((label) => label.value !== '')
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const textLengths: number[] = [];
  let size = 0;
  for (const label of labels) {
    const nameLength = Buffer.byteLength(label.name, 'utf8');
    const valueLength = Buffer.byteLength(label.value, 'utf8');
    textLengths.push(nameLength, valueLength);
    const labelSize = labelMessageSize(nameLength, valueLength);
    size += 1 + varintSize(labelSize, 0) + labelSize;
  }
  for (const sample of series.samples) {
    const sampleSize = sampleMessageSize(sample.timestampMs);
    size += 1 + varintSize(sampleSize, 0) + sampleSize;
  }
  return { labels, textLengths, samples: series.samples, size };
}

function writeSeries(writer: ProtoWriter, series: PlannedSeries): void {
  for (const [i, label] of series.labels.entries()) {
    const nameLength = series.textLengths[2 * i] ?? 0;
    const valueLength = series.textLengths[2 * i + 1] ?? 0;
    writer.tag(SERIES_LABELS);
    writer.uint(labelMessageSize(nameLength, valueLength));
    writer.tag(LABEL_NAME);
    writer.text(label.name, nameLength);
    writer.tag(LABEL_VALUE);
    writer.text(label.value, valueLength);
  }
  for (const sample of series.samples) {
    writer.tag(SERIES_SAMPLES);
    writer.uint(sampleMessageSize(sample.timestampMs));
    writer.tag(SAMPLE_VALUE);
    writer.double(sample.value);
    writer.tag(SAMPLE_TIMESTAMP);
    writer.int64(sample.timestampMs);
  }
}

function labelMessageSize(nameLength: number, valueLength: number): number {
  return 1 + varintSize(nameLength, 0) + nameLength + 1 + varintSize(valueLength, 0) + valueLength;
}

function sampleMessageSize(timestampMs: number): number {
  const { lo, hi } = int64Halves(timestampMs);
  return SAMPLE_VALUE_SIZE + 1 + varintSize(lo, hi);
}

/** A safe integer as the unsigned 32-bit halves of its 64-bit two's complement. */
function int64Halves(value: number): { lo: number; hi: number } {
  if (!Number.isSafeInteger(value)) throw new RangeError(`timestamp ${value} is not a safe integer`);
  const hi = Math.floor(value / TWO_TO_32);
  return { lo: (value - hi * TWO_TO_32) >>> 0, hi: hi >>> 0 };
}

function varintSize(lo: number, hi: number): number {
  let size = 1;
  while (hi !== 0 || lo > 0x7f) {
    lo = ((lo >>> 7) | (hi << 25)) >>> 0;
    hi >>>= 7;
    size++;
  }
  return size;
}

class ProtoWriter {
  readonly bytes: Buffer;
  private readonly view: DataView;
  private pos = 0;

  constructor(size: number) {
    this.bytes = Buffer.alloc(size);
    this.view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
  }

  tag(tag: number): void {
    this.bytes[this.pos++] = tag;
  }

  uint(value: number): void {
    this.varint(value >>> 0, Math.floor(value / TWO_TO_32));
  }

  int64(value: number): void {
    const { lo, hi } = int64Halves(value);
    this.varint(lo, hi);
  }

  double(value: number): void {
    if (isStaleMarker(value)) this.view.setBigUint64(this.pos, STALE_NAN_BITS, true);
    else this.view.setFloat64(this.pos, value, true);
    this.pos += 8;
  }

  text(value: string, byteLength: number): void {
    this.uint(byteLength);
    this.pos += this.bytes.write(value, this.pos, byteLength, 'utf8');
  }

  private varint(lo: number, hi: number): void {
    while (hi !== 0 || lo > 0x7f) {
      this.bytes[this.pos++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    this.bytes[this.pos++] = lo;
  }
}
