/** A sample line of the text exposition, read back for assertions. */
export interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The samples of an exposition text, in order; comment lines are skipped. */
export function parseSamples(text: string): ParsedSample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = SAMPLE_LINE.exec(line);
      if (match === null) throw new Error(`not a sample line: ${line}`);
      const labels: Record<string, string> = {};
      for (const [, key = '', raw = ''] of (match[2] ?? '').matchAll(LABEL)) {
        labels[key] = raw.replace(/\\(.)/g, (_all: string, c: string) => (c === 'n' ? '\n' : c));
      }
      return { name: match[1] ?? '', labels, value: Number(match[3]) };
    });
}

/** The samples of one family whose labels include `labels`. */
export function find(samples: readonly ParsedSample[], name: string, labels: Record<string, string> = {}) {
  return samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  );
}

/** The value of the one sample of `name` with `labels`; fails unless exactly one matches. */
export function valueOf(
  samples: readonly ParsedSample[],
  name: string,
  labels: Record<string, string> = {},
): number {
  const [only, ...more] = find(samples, name, labels);
  if (only === undefined || more.length > 0) {
    throw new Error(`${more.length + (only ? 1 : 0)} samples of ${name} with ${JSON.stringify(labels)}`);
  }
  return only.value;
}
