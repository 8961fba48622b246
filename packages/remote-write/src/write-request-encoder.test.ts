import { uncompressSync } from 'snappy';
import { describe, expect, it } from 'vitest';
import { fixed64, int64, label, message, sample, series } from './protobuf-bytes.test-support.js';
import { STALE_NAN } from './stale-marker.js';
import { encodeWriteRequest, marshalWriteRequest } from './write-request-encoder.js';

/** The marker with its quiet bit set, as V8 on x86 leaves it after an array of doubles. */
function quietedStaleMarker(): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, 0x7ff8000000000002n);
  return view.getFloat64(0);
}

describe('encodeWriteRequest', () => {
  it('writes a snappy block of the protobuf, labels sorted by name', () => {
    const body = encodeWriteRequest({
      timeseries: [
        {
          labels: [
            { name: 'job', value: 'pve' },
            { name: '__name__', value: 'up' },
          ],
          samples: [
            { value: 1, timestampMs: 1000 },
            { value: STALE_NAN, timestampMs: -1 },
          ],
        },
      ],
    });
    const expected = series(
      label('__name__', 'up'),
      label('job', 'pve'),
      sample(1, 1000),
      message(2, [...fixed64(1, 0x7ff0000000000002n), ...int64(2, -1)]),
    );
    expect([...(uncompressSync(body) as Buffer)]).toEqual(expected);
  });

  it('leaves out empty-valued labels and writes UTF-8', () => {
    const bytes = marshalWriteRequest({
      timeseries: [
        {
          labels: [
            { name: '__name__', value: 'up' },
            { name: 'gone', value: '' },
            { name: 'name', value: 'NR-é🚀' },
          ],
          samples: [{ value: 2.5, timestampMs: 0 }],
        },
      ],
    });
    expect([...bytes]).toEqual(series(label('__name__', 'up'), label('name', 'NR-é🚀'), sample(2.5, 0)));
  });

  it('writes the exact staleness marker even when the number lost it on the way', () => {
    const marker = quietedStaleMarker();
    const bytes = marshalWriteRequest({
      timeseries: [
        { labels: [{ name: '__name__', value: 'up' }], samples: [{ value: marker, timestampMs: 0 }] },
      ],
    });
    expect(Buffer.from(bytes).readBigUInt64LE(bytes.length - 10)).toBe(0x7ff0000000000002n);
  });

  it('keeps other NaNs, -0 and the sign of large timestamps', () => {
    const bytes = marshalWriteRequest({
      timeseries: [
        {
          labels: [{ name: '__name__', value: 'up' }],
          samples: [
            { value: NaN, timestampMs: -8_640_000_000_000_000 },
            { value: -0, timestampMs: 2 ** 53 - 1 },
          ],
        },
      ],
    });
    expect([...bytes]).toEqual(
      series(label('__name__', 'up'), sample(NaN, -8_640_000_000_000_000), sample(-0, 2 ** 53 - 1)),
    );
  });

  it('encodes an empty request to an empty message', () => {
    expect([...(uncompressSync(encodeWriteRequest({ timeseries: [] })) as Buffer)]).toEqual([]);
  });

  it('refuses a timestamp that is not a safe integer', () => {
    const request = (timestampMs: number) => ({
      timeseries: [{ labels: [{ name: '__name__', value: 'up' }], samples: [{ value: 1, timestampMs }] }],
    });
    expect(() => encodeWriteRequest(request(1.5))).toThrow(RangeError);
    expect(() => encodeWriteRequest(request(2 ** 53))).toThrow(RangeError);
  });
});
