/**
 * The lowest integer from `from` to `to` that is not in `taken`, found by one walk over the sorted taken
 * values rather than by probing candidates, so the cost depends on how many are taken and not on the size
 * of the range. Sorted input (rows read with ORDER BY) is walked as it is; anything else is sorted first.
 * Values that are not integers can never collide with a candidate and are skipped.
 */
export function lowestFreeInteger(from: number, to: number, taken: readonly number[]): number | undefined {
  const sorted = isSortedIntegers(taken)
    ? taken
    : taken.filter((value) => Number.isInteger(value)).sort((a, b) => a - b);
  let candidate = from;
  for (const value of sorted) {
    if (value > candidate) break;
    if (value === candidate) candidate++;
  }
  return candidate <= to ? candidate : undefined;
}

function isSortedIntegers(values: readonly number[]): boolean {
  let previous = -Infinity;
  for (const value of values) {
    if (!Number.isInteger(value) || value < previous) return false;
    previous = value;
  }
  return true;
}
