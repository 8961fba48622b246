const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
};

const DURATION =
  /^(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h)(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))*$/;
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g;

/**
 * A duration as Go's `time.ParseDuration` reads it (`30s`, `1m30s`, `1.5h`, `500ms`, `0`), in
 * milliseconds; undefined for anything else (a bare number other than 0, a negative value, spaces).
 */
export function parseGoDuration(text: string): number | undefined {
  if (text === '0') return 0;
  if (!DURATION.test(text)) return undefined;
  let ms = 0;
  for (const [, amount = '', unit = ''] of text.matchAll(PART)) ms += Number(amount) * (UNIT_MS[unit] ?? NaN);
  return Number.isFinite(ms) ? ms : undefined;
}
