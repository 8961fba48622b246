import { describe, expect, it } from 'vitest';
import { bitsOf } from './protobuf-bytes.test-support.js';
import { isStaleMarker, STALE_NAN } from './stale-marker.js';

function fromBits(bits: bigint): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, bits);
  return view.getFloat64(0);
}

describe('STALE_NAN', () => {
  it('has the bits of Prometheus’ staleness marker', () => {
    expect(bitsOf(STALE_NAN)).toBe(0x7ff0000000000002n);
  });

  it('is recognised exactly, and after V8 set its quiet bit', () => {
    expect(isStaleMarker(STALE_NAN)).toBe(true);
    expect(isStaleMarker(fromBits(0x7ff8000000000002n))).toBe(true);
  });

  it('is not mistaken for another NaN or a number', () => {
    // JavaScript's NaN, Prometheus' "normal" NaN, another payload, the marker with its sign bit set.
    for (const bits of [0x7ff8000000000000n, 0x7ff8000000000001n, 0x7ff0000000000003n, 0xfff0000000000002n])
      expect(isStaleMarker(fromBits(bits))).toBe(false);
    for (const value of [0, -0, 2, Infinity, -Infinity, Number.MAX_VALUE])
      expect(isStaleMarker(value)).toBe(false);
  });
});
