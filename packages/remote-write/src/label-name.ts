/**
 * The legacy Prometheus name syntax, checked on UTF-8 bytes so the decoder can refuse a name before
 * making a string of it. Label names: `[a-zA-Z_][a-zA-Z0-9_]*`; metric names also allow `:`.
 */
const LABEL_FIRST = 1;
const LABEL_REST = 2;
const METRIC_FIRST = 4;
const METRIC_REST = 8;

const CLASSES = new Uint8Array(256);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
  const digit = c >= 0x30 && c <= 0x39;
  const colon = c === 0x3a;
  CLASSES[c] =
    (letter ? LABEL_FIRST | METRIC_FIRST : 0) |
    (letter || digit ? LABEL_REST | METRIC_REST : 0) |
    (colon ? METRIC_FIRST | METRIC_REST : 0);
}

function matches(bytes: Uint8Array, start: number, end: number, first: number, rest: number): boolean {
  if (end <= start || ((CLASSES[bytes[start] ?? 0] ?? 0) & first) === 0) return false;
  for (let i = start + 1; i < end; i++) if (((CLASSES[bytes[i] ?? 0] ?? 0) & rest) === 0) return false;
  return true;
}

export function isLabelName(bytes: Uint8Array, start: number, end: number): boolean {
  return matches(bytes, start, end, LABEL_FIRST, LABEL_REST);
}

export function isMetricName(bytes: Uint8Array, start: number, end: number): boolean {
  return matches(bytes, start, end, METRIC_FIRST, METRIC_REST);
}
