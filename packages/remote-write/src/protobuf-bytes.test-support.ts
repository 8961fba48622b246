/**
 * Protobuf and snappy bytes built by hand, so that tests of the decoder do not go through the encoder.
 * Field builders return plain byte arrays, to be spread into a message.
 */

function varint(value: number | bigint): number[] {
  let rest = BigInt.asUintN(64, BigInt(value));
  const bytes: number[] = [];
  do {
    const low = Number(rest & 0x7fn);
    rest >>= 7n;
    bytes.push(rest === 0n ? low : low | 0x80);
  } while (rest !== 0n);
  return bytes;
}

export function key(field: number, wireType: number): number[] {
  return varint(field * 8 + wireType);
}

export function message(field: number, content: readonly number[]): number[] {
  return [...key(field, 2), ...varint(content.length), ...content];
}

export function text(field: number, value: string): number[] {
  return message(field, [...Buffer.from(value, 'utf8')]);
}

/** A fixed64 field holding these bits (little-endian), e.g. a double's. */
export function fixed64(field: number, bits: bigint): number[] {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(bits);
  return [...key(field, 1), ...bytes];
}

export function double(field: number, value: number): number[] {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleLE(value);
  return [...key(field, 1), ...bytes];
}

export function int64(field: number, value: number | bigint): number[] {
  return [...key(field, 0), ...varint(value)];
}

/** `prometheus.Label` as `TimeSeries.labels`. */
export function label(name: string, value: string): number[] {
  return message(1, [...text(1, name), ...text(2, value)]);
}

/** `prometheus.Sample` as `TimeSeries.samples`. */
export function sample(value: number, timestampMs: number | bigint): number[] {
  return message(2, [...double(1, value), ...int64(2, timestampMs)]);
}

/** `prometheus.TimeSeries` as `WriteRequest.timeseries`. */
export function series(...fields: readonly number[][]): number[] {
  return message(1, fields.flat());
}

/** A snappy block made of one literal: valid snappy that no compressor had a hand in. */
export function snappyLiteral(bytes: readonly number[]): Uint8Array {
  const n = bytes.length;
  const literalTag =
    n === 0
      ? []
      : n <= 60
        ? [(n - 1) << 2]
        : n <= 256
          ? [60 << 2, n - 1]
          : [61 << 2, (n - 1) & 0xff, (n - 1) >> 8];
  if (n > 65536) throw new RangeError('snappyLiteral: at most 64 KiB');
  return Uint8Array.from([...varint(n), ...literalTag, ...bytes]);
}

/** A double's bits, to compare NaNs exactly. */
export function bitsOf(value: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  return view.getBigUint64(0);
}
