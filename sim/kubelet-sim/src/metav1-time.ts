/** `metav1.Time` as JSON: RFC 3339 in UTC with whole seconds, e.g. `2026-08-01T10:00:05Z`. */
export function metav1Time(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/** RFC 3339 with the fraction Go's `RFC3339Nano` prints (trailing zeros dropped). */
export function rfc3339Nano(ms: number): string {
  const iso = new Date(ms).toISOString();
  const fraction = iso.slice(20, 23).replace(/0+$/, '');
  return `${iso.slice(0, 19)}${fraction === '' ? '' : `.${fraction}`}Z`;
}
