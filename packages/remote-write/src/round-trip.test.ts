import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bitsOf } from './protobuf-bytes.test-support.js';
import { isStaleMarker, STALE_NAN } from './stale-marker.js';
import type { Label, Sample, TimeSeries, WriteRequest } from './types.js';
import { decodeWriteRequest, MAX_TIMESTAMP_MS } from './write-request-decoder.js';
import { encodeWriteRequest } from './write-request-encoder.js';

const labelName = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,20}$/).filter((name) => name !== '__name__');
const metricName = fc.stringMatching(/^[a-zA-Z_:][a-zA-Z0-9_:]{0,30}$/);
const labelValue = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
  fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 20 }),
  fc.constantFrom('pve1', 'qemu', 'NR-0f6c1d1e-6a39-4a51-9b8b-2d3c7d8e9f01'),
);

/** Built in a function so the marker is never stored in an array of doubles, which would change its bits. */
const sampleValue = fc.oneof(
  fc.double(),
  fc.constantFrom('stale', 'nan', 'inf', '-inf', '-0').map((kind) => {
    if (kind === 'stale') return STALE_NAN;
    if (kind === 'nan') return NaN;
    if (kind === 'inf') return Infinity;
    return kind === '-inf' ? -Infinity : -0;
  }),
);
const timestampMs = fc.oneof(
  fc.integer({ min: 1_600_000_000_000, max: 2_000_000_000_000 }),
  fc.integer(),
  fc.bigInt({ min: BigInt(-MAX_TIMESTAMP_MS), max: BigInt(MAX_TIMESTAMP_MS) }).map(Number),
  fc.constantFrom(-MAX_TIMESTAMP_MS, MAX_TIMESTAMP_MS, 0, -1),
);
const sample: fc.Arbitrary<Sample> = fc.record({ value: sampleValue, timestampMs });

const timeSeries: fc.Arbitrary<TimeSeries> = fc
  .tuple(
    metricName,
    fc.uniqueArray(fc.record({ name: labelName, value: labelValue }), {
      selector: (label) => label.name,
      maxLength: 10,
    }),
    fc.array(sample, { minLength: 1, maxLength: 5 }),
  )
  .map(([name, labels, samples]) => ({ labels: [{ name: '__name__', value: name }, ...labels], samples }));

const writeRequest: fc.Arbitrary<WriteRequest> = fc.record({
  timeseries: fc.array(timeSeries, { maxLength: 8 }),
});

function byName(a: Label, b: Label): number {
  return a.name < b.name ? -1 : 1;
}

/** A request in a form `toEqual` compares exactly: labels sorted, every value as its bits. */
function comparable(request: WriteRequest) {
  return request.timeseries.map((series) => ({
    labels: [...series.labels].sort(byName),
    samples: series.samples.map((s) => ({ bits: bitsOf(s.value), timestampMs: s.timestampMs })),
  }));
}

describe('encodeWriteRequest and decodeWriteRequest', () => {
  it('round-trip any valid request, bit for bit', () => {
    fc.assert(
      fc.property(writeRequest, (request) => {
        const decoded = decodeWriteRequest(encodeWriteRequest(request));
        expect(comparable(decoded)).toEqual(comparable(request));
        expect(decoded.skippedHistograms).toBe(0);
      }),
      { numRuns: 500 },
    );
  });

  it('keep every staleness marker recognisable', () => {
    fc.assert(
      fc.property(writeRequest, (request) => {
        const decoded = decodeWriteRequest(encodeWriteRequest(request));
        const stale = (r: WriteRequest) =>
          r.timeseries.flatMap((s) => s.samples.map((x) => isStaleMarker(x.value)));
        expect(stale(decoded)).toEqual(stale(request));
      }),
      { numRuns: 200 },
    );
  });
});
