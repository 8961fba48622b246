const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;

/** A duration the way kubectl's AGE column shows it: `45s`, `5m30s`, `3h`, `2d4h`, `1y20d`. */
function humanDuration(seconds: number): string {
  if (seconds < -1) return '<invalid>';
  const s = Math.max(0, Math.floor(seconds));
  if (s < 2 * MINUTE) return `${s}s`;
  const m = Math.floor(s / MINUTE);
  if (m < 10) return s % MINUTE === 0 ? `${m}m` : `${m}m${s % MINUTE}s`;
  if (s < 3 * HOUR) return `${m}m`;
  const h = Math.floor(s / HOUR);
  if (h < 8) return m % 60 === 0 ? `${h}h` : `${h}h${m % 60}m`;
  if (h < 48) return `${h}h`;
  const d = Math.floor(s / DAY);
  if (h < 8 * 24) return h % 24 === 0 ? `${d}d` : `${d}d${h % 24}h`;
  if (s < 2 * YEAR) return `${d}d`;
  const y = Math.floor(s / YEAR);
  if (y < 8) return d % 365 === 0 ? `${y}y` : `${y}y${d % 365}d`;
  return `${y}y`;
}

export function age(timestamp: unknown, now: Date): string {
  if (typeof timestamp !== 'string') return '<unknown>';
  const at = Date.parse(timestamp);
  if (Number.isNaN(at)) return '<unknown>';
  return humanDuration((now.getTime() - at) / 1000);
}
