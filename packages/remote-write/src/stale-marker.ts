/**
 * Prometheus' staleness marker: a signalling NaN whose bits are exactly `0x7ff0000000000002`, appended
 * when a series disappears from a scrape. Compare with `isStaleMarker`, never with `===` (NaN).
 *
 * On x86, V8 sets a signalling NaN's quiet bit (giving `0x7ff8000000000002`) when the number goes through
 * an array of doubles, so `isStaleMarker` accepts that variant too and the encoder always writes the exact
 * marker. Kept in objects, as `Sample` keeps it, the bits survive unchanged.
 */
export const STALE_NAN_BITS = 0x7ff0000000000002n;
const QUIET_BIT = 0x0008000000000000n;

const scratch = new DataView(new ArrayBuffer(8));

function staleNaN(): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, STALE_NAN_BITS);
  return view.getFloat64(0);
}

export const STALE_NAN: number = staleNaN();

export function isStaleMarker(value: number): boolean {
  if (!Number.isNaN(value)) return false;
  scratch.setFloat64(0, value);
  return (scratch.getBigUint64(0) | QUIET_BIT) === (STALE_NAN_BITS | QUIET_BIT);
}
