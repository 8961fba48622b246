import fc from 'fast-check';
import { compressSync } from 'snappy';
import { describe, expect, it } from 'vitest';
import {
  bitsOf,
  double,
  fixed64,
  int64,
  key,
  label,
  message,
  sample,
  series,
  snappyLiteral,
  text,
} from './protobuf-bytes.test-support.js';
import { RemoteWriteError, type RemoteWriteErrorCode } from './remote-write-error.js';
import { isStaleMarker, STALE_NAN } from './stale-marker.js';
import { decodeWriteRequest, type DecodeLimits } from './write-request-decoder.js';
import { marshalWriteRequest } from './write-request-encoder.js';

/**
 * `{__name__="up", job="pve"}` with samples (1, 1000 ms) and (staleness marker, -1 ms), byte by byte as
 * protoc would write it, in a one-literal snappy block.
 */
// prettier-ignore
const TINY_REQUEST = Uint8Array.from([
  // snappy: uncompressed length 66, then one literal of 66 bytes (tag 60<<2, length-1 in one byte)
  0x42, 0xf0, 0x41,
  // WriteRequest.timeseries (1, LEN), 64 bytes
  0x0a, 0x40,
  // TimeSeries.labels (1, LEN), 14 bytes: name "__name__", value "up"
  0x0a, 0x0e, 0x0a, 0x08, 0x5f, 0x5f, 0x6e, 0x61, 0x6d, 0x65, 0x5f, 0x5f, 0x12, 0x02, 0x75, 0x70,
  // TimeSeries.labels, 10 bytes: name "job", value "pve"
  0x0a, 0x0a, 0x0a, 0x03, 0x6a, 0x6f, 0x62, 0x12, 0x03, 0x70, 0x76, 0x65,
  // TimeSeries.samples (2, LEN), 12 bytes: value (1, I64) 1.0, timestamp (2, VARINT) 1000
  0x12, 0x0c, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x3f, 0x10, 0xe8, 0x07,
  // TimeSeries.samples, 20 bytes: value 0x7ff0000000000002, timestamp -1 (ten bytes of two's complement)
  0x12, 0x14, 0x09, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x7f,
  0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
]);

function decodeRaw(bytes: readonly number[], limits?: DecodeLimits) {
  return decodeWriteRequest(compressSync(Buffer.from(bytes)), limits);
}

function refusal(run: () => unknown): { code: RemoteWriteErrorCode; message: string } {
  try {
    run();
  } catch (e: unknown) {
    if (e instanceof RemoteWriteError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected a RemoteWriteError, but the body was accepted');
}

const UP = label('__name__', 'up');
const ONE_SAMPLE = sample(1, 1000);

describe('decodeWriteRequest', () => {
  it('decodes a hand-assembled request, keeping the staleness marker bit for bit', () => {
    const decoded = decodeWriteRequest(TINY_REQUEST);
    expect(decoded).toEqual({
      timeseries: [
        {
          labels: [
            { name: '__name__', value: 'up' },
            { name: 'job', value: 'pve' },
          ],
          samples: [
            { value: 1, timestampMs: 1000 },
            { value: NaN, timestampMs: -1 },
          ],
        },
      ],
      skippedHistograms: 0,
    });
    const stale = decoded.timeseries[0]?.samples[1]?.value ?? 0;
    expect(bitsOf(stale)).toBe(0x7ff0000000000002n);
    expect(isStaleMarker(stale)).toBe(true);
  });

  it('reads what the encoder writes for the same request byte for byte', () => {
    const raw = [...TINY_REQUEST.subarray(3)];
    const decoded = decodeWriteRequest(TINY_REQUEST);
    expect([...marshalWriteRequest(decoded)]).toEqual(raw);
  });

  it('sorts labels a sender did not sort, as Prometheus does, and drops empty values', () => {
    const decoded = decodeRaw(
      series(label('zone', 'a'), label('empty', ''), UP, label('job', 'pve'), ONE_SAMPLE),
    );
    expect(decoded.timeseries[0]?.labels).toEqual([
      { name: '__name__', value: 'up' },
      { name: 'job', value: 'pve' },
      { name: 'zone', value: 'a' },
    ]);
  });

  it('keeps UTF-8 label values, the extremes of timestamps and doubles', () => {
    const decoded = decodeRaw(
      series(
        UP,
        label('name', 'NR-ünïcødé 🚀'),
        sample(Infinity, 8_640_000_000_000_000),
        sample(-Infinity, -8_640_000_000_000_000),
        sample(-0, 0),
        sample(Number.MIN_VALUE, 1_760_000_000_123),
      ),
    );
    expect(decoded.timeseries[0]).toEqual({
      labels: [
        { name: '__name__', value: 'up' },
        { name: 'name', value: 'NR-ünïcødé 🚀' },
      ],
      samples: [
        { value: Infinity, timestampMs: 8_640_000_000_000_000 },
        { value: -Infinity, timestampMs: -8_640_000_000_000_000 },
        { value: -0, timestampMs: 0 },
        { value: Number.MIN_VALUE, timestampMs: 1_760_000_000_123 },
      ],
    });
  });

  it('takes absent fields as their proto3 defaults and the last of a repeated scalar', () => {
    const decoded = decodeRaw(
      series(UP, message(2, []), message(2, [...int64(2, 5), ...double(1, 2), ...double(1, 3)])),
    );
    expect(decoded.timeseries[0]?.samples).toEqual([
      { value: 0, timestampMs: 0 },
      { value: 3, timestampMs: 5 },
    ]);
  });

  it('skips metadata, exemplars and fields it does not know, of every wire type', () => {
    const unknown = [...int64(9, -1), ...fixed64(10, 7n), ...text(11, 'future'), ...key(12, 5), 1, 2, 3, 4];
    const decoded = decodeRaw([
      ...text(3, 'metadata is skipped'),
      ...unknown,
      ...series(
        unknown,
        message(1, [...text(1, '__name__'), ...unknown, ...text(2, 'up')]),
        message(3, [...label('trace_id', 'abc'), ...double(2, 1)]),
        message(2, [...unknown, ...double(1, 4), ...int64(2, 9)]),
      ),
      ...message(2, [1, 2, 3]),
    ]);
    expect(decoded).toEqual({
      timeseries: [{ labels: [{ name: '__name__', value: 'up' }], samples: [{ value: 4, timestampMs: 9 }] }],
      skippedHistograms: 0,
    });
  });

  it('drops native histograms and counts them; a series of histograms only is left out', () => {
    const histogram = message(4, [...int64(1, 3), ...int64(15, 1000)]);
    const decoded = decodeRaw([
      ...series(UP, histogram, histogram),
      ...series(label('__name__', 'up2'), histogram, ONE_SAMPLE),
      ...series(label('__name__', 'exemplar_only'), message(3, double(2, 1))),
    ]);
    expect(decoded.skippedHistograms).toBe(3);
    expect(decoded.timeseries.map((s) => s.labels[0]?.value)).toEqual(['up2']);
  });

  it('tells apart repeated labels whose bytes hash the same', () => {
    // The label messages job="7ds3aaa" and job="byaacaa" have the same 32-bit FNV-1a hash.
    const decoded = decodeRaw([
      ...series(UP, label('job', '7ds3aaa'), ONE_SAMPLE),
      ...series(UP, label('job', 'byaacaa'), ONE_SAMPLE),
      ...series(UP, label('job', '7ds3aaa'), ONE_SAMPLE),
    ]);
    expect(decoded.timeseries.map((s) => s.labels[1]?.value)).toEqual(['7ds3aaa', 'byaacaa', '7ds3aaa']);
  });

  it('decodes a metadata-only request to no series', () => {
    expect(decodeRaw(message(3, [...int64(1, 1), ...text(2, 'up')])).timeseries).toEqual([]);
    expect(decodeWriteRequest(snappyLiteral([])).timeseries).toEqual([]);
  });

  describe('refuses a malformed or invalid body as a whole, saying where', () => {
    const cases: [string, number[], RemoteWriteErrorCode, string][] = [
      ['truncated varint', [0x80], 'REMOTE_WRITE_MALFORMED', 'request: truncated varint'],
      [
        'varint of 11 bytes',
        series(UP, message(2, [...key(2, 0), ...Array<number>(10).fill(0x80), 0x01])),
        'REMOTE_WRITE_MALFORMED',
        'timeseries[0].samples[0]: varint longer than 10 bytes',
      ],
      [
        'varint past 64 bits',
        series(UP, message(2, [...key(2, 0), ...Array<number>(9).fill(0xff), 0x02])),
        'REMOTE_WRITE_MALFORMED',
        'timeseries[0].samples[0]: varint overflows 64 bits',
      ],
      ['field number 0', [0x02, 0x00], 'REMOTE_WRITE_MALFORMED', 'request: invalid field tag 2'],
      [
        'timeseries as a varint',
        int64(1, 1),
        'REMOTE_WRITE_MALFORMED',
        'request: field 1 (timeseries) has wire type varint, expected length-delimited',
      ],
      [
        'metadata as a fixed64',
        fixed64(3, 1n),
        'REMOTE_WRITE_MALFORMED',
        'request: field 3 (metadata) has wire type i64, expected length-delimited',
      ],
      [
        'sample value as a varint',
        series(UP, message(2, int64(1, 1))),
        'REMOTE_WRITE_MALFORMED',
        'timeseries[0].samples[0]: field 1 (value) has wire type varint, expected i64',
      ],
      [
        'timestamp as a double',
        series(UP, message(2, double(2, 1))),
        'REMOTE_WRITE_MALFORMED',
        'timeseries[0].samples[0]: field 2 (timestamp) has wire type i64, expected varint',
      ],
      [
        'label name as an i32',
        series(UP, message(1, [...key(1, 5), 0, 0, 0, 0])),
        'REMOTE_WRITE_MALFORMED',
        'timeseries[0].labels[1]: field 1 (name) has wire type i32, expected length-delimited',
      ],
      [
        'histogram as a varint',
        series(UP, ONE_SAMPLE, int64(4, 1)),
        'REMOTE_WRITE_MALFORMED',
        'timeseries[0]: field 4 (histograms) has wire type varint, expected length-delimited',
      ],
      [
        'length past the end of the body',
        [0x0a, 0x05, 0x00, 0x00],
        'REMOTE_WRITE_MALFORMED',
        'timeseries[0]: declares 5 bytes but only 2 are left',
      ],
      [
        'label longer than its series',
        message(1, [...key(1, 2), 0x10, ...text(1, '__name__')]),
        'REMOTE_WRITE_MALFORMED',
        'timeseries[0].labels[0]: declares 16 bytes but only 10 are left',
      ],
      [
        'truncated double',
        series(UP, message(2, [...key(1, 1), 0, 0, 0, 0])),
        'REMOTE_WRITE_MALFORMED',
        'timeseries[0].samples[0]: truncated double',
      ],
      [
        'group wire type',
        [...key(5, 3), ...key(5, 4)],
        'REMOTE_WRITE_MALFORMED',
        'request: unsupported wire type group start',
      ],
      [
        'no __name__',
        series(label('job', 'pve'), ONE_SAMPLE),
        'REMOTE_WRITE_INVALID',
        'timeseries[0]: no __name__ label',
      ],
      [
        'empty label name',
        series(UP, label('', 'x'), ONE_SAMPLE),
        'REMOTE_WRITE_INVALID',
        'timeseries[0].labels[1]: empty label name',
      ],
      [
        'label name starting with a digit',
        series(UP, label('1st', 'x'), ONE_SAMPLE),
        'REMOTE_WRITE_INVALID',
        'timeseries[0].labels[1]: invalid label name "1st"',
      ],
      [
        'label name with a colon',
        series(UP, label('a:b', 'x'), ONE_SAMPLE),
        'REMOTE_WRITE_INVALID',
        'timeseries[0].labels[1]: invalid label name "a:b"',
      ],
      [
        'very long invalid label name',
        series(UP, label(`-${'x'.repeat(100)}`, 'x'), ONE_SAMPLE),
        'REMOTE_WRITE_INVALID',
        `timeseries[0].labels[1]: invalid label name "-${'x'.repeat(63)}…"`,
      ],
      [
        'metric name with a dash',
        series(label('__name__', 'pve-up'), ONE_SAMPLE),
        'REMOTE_WRITE_INVALID',
        'timeseries[0].labels[0]: invalid metric name "pve-up"',
      ],
      [
        'empty metric name',
        series(label('__name__', ''), ONE_SAMPLE),
        'REMOTE_WRITE_INVALID',
        'timeseries[0].labels[0]: invalid metric name ""',
      ],
      [
        'duplicate label, sorted',
        series(UP, label('job', 'a'), label('job', 'b'), ONE_SAMPLE),
        'REMOTE_WRITE_INVALID',
        'timeseries[0].labels[2]: duplicate label name "job"',
      ],
      [
        'duplicate label, unsorted',
        series(label('job', 'a'), UP, label('zone', 'x'), label('job', 'a'), ONE_SAMPLE),
        'REMOTE_WRITE_INVALID',
        'timeseries[0].labels[3]: duplicate label name "job"',
      ],
      [
        'value that is not UTF-8',
        series(UP, message(1, [...text(1, 'job'), ...message(2, [0x61, 0xc3, 0x28])]), ONE_SAMPLE),
        'REMOTE_WRITE_INVALID',
        'timeseries[0].labels[1]: value is not valid UTF-8',
      ],
      [
        'value with a UTF-16 surrogate',
        series(UP, message(1, [...text(1, 'job'), ...message(2, [0xed, 0xa0, 0x80])]), ONE_SAMPLE),
        'REMOTE_WRITE_INVALID',
        'timeseries[0].labels[1]: value is not valid UTF-8',
      ],
      [
        'overlong UTF-8',
        series(UP, message(1, [...text(1, 'job'), ...message(2, [0xc0, 0xaf])]), ONE_SAMPLE),
        'REMOTE_WRITE_INVALID',
        'timeseries[0].labels[1]: value is not valid UTF-8',
      ],
      ['series without samples', series(UP), 'REMOTE_WRITE_INVALID', 'timeseries[0]: no samples'],
      [
        'timestamp past the Date range',
        series(UP, sample(1, 8_640_000_000_000_001)),
        'REMOTE_WRITE_INVALID',
        'timeseries[0].samples[0]: timestamp 8640000000000001 ms is outside ±8640000000000000 ms',
      ],
      [
        'smallest int64 timestamp',
        series(UP, sample(1, -(2n ** 63n))),
        'REMOTE_WRITE_INVALID',
        'timeseries[0].samples[0]: timestamp -9223372036854775808 ms is outside ±8640000000000000 ms',
      ],
      [
        'an invalid series after a valid one',
        [...series(UP, ONE_SAMPLE), ...series(UP, sample(1, 1), label('bad-name', 'x'))],
        'REMOTE_WRITE_INVALID',
        'timeseries[1].labels[1]: invalid label name "bad-name"',
      ],
    ];
    it.each(cases)('%s', (_, bytes, code, message) => {
      expect(refusal(() => decodeRaw(bytes))).toEqual({ code, message });
    });
  });

  describe('the body', () => {
    it('refuses what is not snappy', () => {
      expect(refusal(() => decodeWriteRequest(new Uint8Array()))).toEqual({
        code: 'REMOTE_WRITE_MALFORMED',
        message: 'body: empty',
      });
      expect(
        refusal(() => decodeWriteRequest(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0x01]))),
      ).toEqual({
        code: 'REMOTE_WRITE_MALFORMED',
        message: 'body: not snappy-compressed: bad length preamble',
      });
      // Declares 5 bytes, then a copy from before the start.
      expect(refusal(() => decodeWriteRequest(Uint8Array.from([0x05, 0x01, 0x09, 0x00])))).toEqual({
        code: 'REMOTE_WRITE_MALFORMED',
        message: 'body: not valid snappy-compressed data',
      });
      // Snappy's framed format is not what remote-write sends.
      const framed = Uint8Array.from([0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59]);
      expect(refusal(() => decodeWriteRequest(framed)).code).toBe('REMOTE_WRITE_MALFORMED');
    });

    it('refuses a block that decodes to more or fewer bytes than it declares', () => {
      const block = snappyLiteral(series(UP, ONE_SAMPLE));
      const shortened = Uint8Array.from([(block[0] ?? 0) + 1, ...block.subarray(1)]);
      expect(refusal(() => decodeWriteRequest(shortened)).code).toBe('REMOTE_WRITE_MALFORMED');
    });
  });

  describe('limits', () => {
    const raw = [...series(UP, ONE_SAMPLE, sample(2, 2000)), ...series(UP, ONE_SAMPLE)];
    const body = snappyLiteral(raw);

    it('accepts a body exactly at every limit', () => {
      const decoded = decodeWriteRequest(body, {
        maxCompressedBytes: body.length,
        maxDecompressedBytes: raw.length,
        maxSeries: 2,
        maxSamples: 3,
      });
      expect(decoded.timeseries).toHaveLength(2);
    });

    it('refuses a body over the compressed limit', () => {
      expect(refusal(() => decodeWriteRequest(body, { maxCompressedBytes: body.length - 1 }))).toEqual({
        code: 'REMOTE_WRITE_TOO_LARGE',
        message: `body: ${body.length} bytes compressed, over the limit of ${body.length - 1}`,
      });
    });

    it('refuses from the preamble alone a body that declares too much', () => {
      // Five bytes declaring 4 GiB: refused before the decompressor allocates anything.
      const bomb = Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0x0f]);
      expect(refusal(() => decodeWriteRequest(bomb))).toEqual({
        code: 'REMOTE_WRITE_TOO_LARGE',
        message: 'body: declares 4294967295 bytes decompressed, over the limit of 33554432',
      });
      expect(refusal(() => decodeWriteRequest(body, { maxDecompressedBytes: 10 }))).toEqual({
        code: 'REMOTE_WRITE_TOO_LARGE',
        message: `body: declares ${raw.length} bytes decompressed, over the limit of 10`,
      });
    });

    it('refuses more series or samples than allowed', () => {
      expect(refusal(() => decodeWriteRequest(body, { maxSeries: 1 }))).toEqual({
        code: 'REMOTE_WRITE_TOO_LARGE',
        message: 'timeseries[1]: over the limit of 1 series per request',
      });
      expect(refusal(() => decodeWriteRequest(body, { maxSamples: 2 }))).toEqual({
        code: 'REMOTE_WRITE_TOO_LARGE',
        message: 'timeseries[1].samples[0]: over the limit of 2 samples per request',
      });
    });

    it('refuses limits that are not counts', () => {
      expect(() => decodeWriteRequest(body, { maxSeries: -1 })).toThrow(RangeError);
      expect(() => decodeWriteRequest(body, { maxCompressedBytes: 1.5 })).toThrow(RangeError);
    });
  });

  it('throws nothing but RemoteWriteError, whatever the bytes', () => {
    const valid = [...series(UP, label('job', 'pve'), ONE_SAMPLE, sample(STALE_NAN, -1)), ...text(3, 'm')];
    const mutated = fc
      .array(fc.tuple(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 }), fc.boolean()), {
        minLength: 1,
        maxLength: 4,
      })
      .map((edits) => {
        const bytes = [...valid];
        for (const [at, byte, insert] of edits) bytes.splice(at, insert ? 0 : 1, byte);
        return bytes;
      });
    const random = fc.uint8Array({ maxLength: 200 }).map((bytes) => [...bytes]);
    fc.assert(
      fc.property(fc.oneof(mutated, random), (bytes) => {
        try {
          decodeRaw(bytes);
        } catch (e: unknown) {
          if (!(e instanceof RemoteWriteError)) throw e;
        }
      }),
      { numRuns: 2000 },
    );
  });
});
