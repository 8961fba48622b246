import { parseExposition } from '@noderings/prom';

/** A sample line of the text exposition, read back for assertions. */
export interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of an exposition text, in order, read with `@noderings/prom`'s parser. */
export function parseSamples(text: string): ParsedSample[] {
  return parseExposition(text).flatMap((family) =>
    family.samples.map(({ name, labels, value }) => ({ name, labels, value })),
  );
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
