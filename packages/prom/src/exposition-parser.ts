/**
 * Prometheus' text exposition format 0.0.4, read two ways: `scanExposition` streams the samples of the
 * metric names a caller wants and skips every other line after reading only its name (the node agent needs
 * about 8 of cAdvisor's 60 families, so most of a 4 MB answer is never parsed), and `parseExposition`
 * builds every family with its HELP, TYPE and samples, checking the whole document (for tests and tools).
 *
 * Accepted as the Go parser (prometheus/common expfmt) accepts it: blanks and tabs between tokens, CRLF line
 * ends, comments, a trailing comma in a label set, `{}`, values Go's ParseFloat reads in decimal (`NaN`,
 * `Inf`, `+Inf`, `-Inf` in any case, exponents; no hexadecimal), an optional int64 millisecond timestamp.
 */

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface ExpositionSample {
  name: string;
  labels: Record<string, string>;
  value: number;
  timestampMs: number | undefined;
}

export interface ExpositionFamily {
  name: string;
  type: MetricType;
  /** Undefined without a HELP line. */
  help: string | undefined;
  /** A histogram's or summary's `_bucket`, `_sum` and `_count` samples belong to its family. */
  samples: ExpositionSample[];
}

export class ExpositionError extends Error {
  override readonly name = 'ExpositionError';

  constructor(
    /** 1-based. */
    readonly line: number,
    readonly problem: string,
  ) {
    super(`line ${line}: ${problem}`);
  }
}

export type SampleHandler = (
  name: string,
  labels: Record<string, string>,
  value: number,
  timestampMs: number | undefined,
) => void;

const TAB = 9;
const CARRIAGE_RETURN = 13;
const SPACE = 32;
const QUOTE = 34;
const HASH = 35;
const PLUS = 43;
const COMMA = 44;
const MINUS = 45;
const DOT = 46;
const DIGIT_0 = 48;
const DIGIT_9 = 57;
const COLON = 58;
const EQUALS = 61;
const UPPER_A = 65;
const UPPER_E = 69;
const UPPER_Z = 90;
const BACKSLASH = 92;
const UNDERSCORE = 95;
const LOWER_A = 97;
const LOWER_E = 101;
const LOWER_N = 110;
const LOWER_Z = 122;
const LEFT_BRACE = 123;
const RIGHT_BRACE = 125;

const METRIC_TYPES: ReadonlySet<string> = new Set<MetricType>([
  'counter',
  'gauge',
  'histogram',
  'summary',
  'untyped',
]);

/** Go's int64 range, which Prometheus' millisecond timestamps use. */
const MAX_TIMESTAMP_MS = 2 ** 63;

/**
 * Calls `onSample` for every sample line whose metric name `accept` returns true for, in document order.
 * `accept` sees each sample's own name (`foo_bucket`, not the family `foo`) and is asked once per run of
 * lines with the same name. Skipped lines and comments are checked only as far as their metric name; the
 * lines passed on are checked completely. Throws `ExpositionError` on malformed input.
 */
export function scanExposition(
  text: string,
  accept: (metricName: string) => boolean,
  onSample: SampleHandler,
): void {
  const reader = new LineReader(text);
  let lastName = '';
  let lastAccepted = false;
  while (reader.nextLine()) {
    const start = reader.pos;
    if (start === reader.end || text.charCodeAt(start) === HASH) continue;
    const nameEnd = reader.metricNameEnd();
    // Families are contiguous, so comparing in place with the previous name avoids a slice per line.
    if (nameEnd - start !== lastName.length || !text.startsWith(lastName, start)) {
      lastName = text.slice(start, nameEnd);
      lastAccepted = accept(lastName);
    }
    if (!lastAccepted) continue;
    reader.pos = nameEnd;
    reader.readSampleAfterName();
    onSample(lastName, reader.labels, reader.value, reader.timestampMs);
  }
}

/**
 * Every family of the document in order of first appearance, including families declared by HELP or TYPE
 * without samples. Throws `ExpositionError` on malformed input, including a second HELP or TYPE line for a
 * family, a TYPE line after the family's samples, and histogram or summary samples that lack their `le` or
 * `quantile` label.
 */
export function parseExposition(text: string): ExpositionFamily[] {
  const reader = new LineReader(text);
  const families = new FamilyTable();
  while (reader.nextLine()) {
    const start = reader.pos;
    if (start === reader.end) continue;
    if (text.charCodeAt(start) === HASH) {
      readComment(reader, families);
      continue;
    }
    const nameEnd = reader.metricNameEnd();
    const name = text.slice(start, nameEnd);
    reader.pos = nameEnd;
    reader.readSampleAfterName();
    const sample: ExpositionSample = {
      name,
      labels: reader.labels,
      value: reader.value,
      timestampMs: reader.timestampMs,
    };
    const problem = families.add(sample);
    if (problem !== undefined) reader.fail(problem);
  }
  return families.list();
}

function readComment(reader: LineReader, families: FamilyTable): void {
  reader.pos++;
  reader.skipBlanks();
  const keyword = reader.readToken();
  if (keyword !== 'HELP' && keyword !== 'TYPE') return;
  reader.skipBlanks();
  if (reader.pos === reader.end) reader.fail(`${keyword} line without a metric name`);
  const nameStart = reader.pos;
  let nameEnd = nameStart;
  while (nameEnd < reader.end && isMetricNameChar(reader.text.charCodeAt(nameEnd), nameEnd === nameStart)) {
    nameEnd++;
  }
  if (nameEnd === nameStart || (nameEnd < reader.end && !isBlank(reader.text.charCodeAt(nameEnd)))) {
    reader.fail(`invalid metric name "${reader.readToken()}" in ${keyword} line`);
  }
  const name = reader.text.slice(nameStart, nameEnd);
  reader.pos = nameEnd;
  reader.skipBlanks();
  const problem =
    keyword === 'HELP'
      ? families.setHelp(name, reader.readHelpText())
      : families.setType(name, reader.readRestTrimmed());
  if (problem !== undefined) reader.fail(problem);
}

interface FamilyEntry {
  family: ExpositionFamily;
  typeDeclared: boolean;
}

/** The families of one document, with the format's ordering rules; returns a problem text instead of throwing. */
class FamilyTable {
  private readonly byName = new Map<string, FamilyEntry>();
  private readonly ordered: ExpositionFamily[] = [];

  setHelp(name: string, help: string): string | undefined {
    const entry = this.entry(name);
    if (entry.family.help !== undefined) return `second HELP line for ${name}`;
    entry.family.help = help;
    return undefined;
  }

  setType(name: string, type: string): string | undefined {
    if (!METRIC_TYPES.has(type)) return `unknown metric type "${type}" for ${name}`;
    const entry = this.entry(name);
    if (entry.typeDeclared) return `second TYPE line for ${name}`;
    if (entry.family.samples.length > 0) return `TYPE line for ${name} after its samples`;
    entry.typeDeclared = true;
    entry.family.type = type as MetricType;
    return undefined;
  }

  add(sample: ExpositionSample): string | undefined {
    const { name } = sample;
    const exact = this.byName.get(name);
    if (exact !== undefined) {
      const problem = checkSampleInFamily(sample, exact.family);
      if (problem === undefined) exact.family.samples.push(sample);
      return problem;
    }
    const family = this.compositeFamilyOf(name) ?? this.entry(name).family;
    const problem = checkSampleInFamily(sample, family);
    if (problem === undefined) family.samples.push(sample);
    return problem;
  }

  list(): ExpositionFamily[] {
    return this.ordered;
  }

  /** The histogram or summary family a `_bucket`, `_sum` or `_count` sample belongs to, if declared. */
  private compositeFamilyOf(name: string): ExpositionFamily | undefined {
    for (const suffix of ['_sum', '_count', '_bucket']) {
      if (!name.endsWith(suffix)) continue;
      const family = this.byName.get(name.slice(0, -suffix.length))?.family;
      if (family?.type === 'histogram') return family;
      if (family?.type === 'summary' && suffix !== '_bucket') return family;
    }
    return undefined;
  }

  private entry(name: string): FamilyEntry {
    let entry = this.byName.get(name);
    if (entry === undefined) {
      entry = { family: { name, type: 'untyped', help: undefined, samples: [] }, typeDeclared: false };
      this.byName.set(name, entry);
      this.ordered.push(entry.family);
    }
    return entry;
  }
}

function checkSampleInFamily(sample: ExpositionSample, family: ExpositionFamily): string | undefined {
  const suffix = sample.name.slice(family.name.length);
  if (family.type === 'histogram') {
    if (suffix === '_bucket') return checkBoundLabel(sample, 'le');
    if (suffix !== '_sum' && suffix !== '_count') {
      return `histogram sample ${sample.name} must end in _bucket, _sum or _count`;
    }
  }
  if (family.type === 'summary' && suffix === '') return checkBoundLabel(sample, 'quantile');
  return undefined;
}

function checkBoundLabel(sample: ExpositionSample, label: 'le' | 'quantile'): string | undefined {
  const bound = sample.labels[label];
  if (bound === undefined) return `${sample.name} has no "${label}" label`;
  if (bound === '' || parseSampleValue(bound) === undefined) {
    return `"${label}" label of ${sample.name} is not a number: "${bound}"`;
  }
  return undefined;
}

/**
 * A cursor over one line at a time. The sample fields are written in place rather than returned, so that
 * reading a sample allocates only its label object and strings. The character at `end` is `\r`, `\n` or
 * past the text, never part of a token, so comparing it with a delimiter needs no bounds check.
 */
class LineReader {
  lineNumber = 0;
  /** Position in the current line; starts after its leading blanks. */
  pos = 0;
  /** End of the current line's content, before `\n` or `\r\n`. */
  end = 0;
  labels: Record<string, string> = {};
  value = 0;
  timestampMs: number | undefined = undefined;
  private nextStart = 0;

  constructor(readonly text: string) {}

  nextLine(): boolean {
    const { text } = this;
    const start = this.nextStart;
    if (start >= text.length) return false;
    let newline = text.indexOf('\n', start);
    if (newline === -1) newline = text.length;
    this.nextStart = newline + 1;
    this.end = newline > start && text.charCodeAt(newline - 1) === CARRIAGE_RETURN ? newline - 1 : newline;
    this.lineNumber++;
    this.pos = start;
    this.skipBlanks();
    return true;
  }

  fail(problem: string): never {
    throw new ExpositionError(this.lineNumber, problem);
  }

  skipBlanks(): void {
    const { text, end } = this;
    let pos = this.pos;
    while (pos < end && isBlank(text.charCodeAt(pos))) pos++;
    this.pos = pos;
  }

  /** Reads up to the next blank. */
  readToken(): string {
    const { text, end } = this;
    const start = this.pos;
    let pos = start;
    while (pos < end && !isBlank(text.charCodeAt(pos))) pos++;
    this.pos = pos;
    return text.slice(start, pos);
  }

  readRestTrimmed(): string {
    let end = this.end;
    while (end > this.pos && isBlank(this.text.charCodeAt(end - 1))) end--;
    const rest = this.text.slice(this.pos, end);
    this.pos = this.end;
    return rest;
  }

  /** The end of the metric name at `pos`, which must be followed by a label set or a blank. */
  metricNameEnd(): number {
    const { text, end } = this;
    const start = this.pos;
    let pos = start;
    while (pos < end && isMetricNameChar(text.charCodeAt(pos), pos === start)) pos++;
    if (pos === start) this.fail(`expected a metric name, found "${text.charAt(pos)}"`);
    if (pos === end) this.fail(`no value after ${text.slice(start, pos)}`);
    const next = text.charCodeAt(pos);
    if (next !== LEFT_BRACE && !isBlank(next)) {
      this.fail(`unexpected "${text.charAt(pos)}" in metric name ${text.slice(start, pos)}`);
    }
    return pos;
  }

  /** Labels, value and timestamp of the sample whose name ends at `pos`. */
  readSampleAfterName(): void {
    this.skipBlanks();
    const labels: Record<string, string> = {};
    if (this.text.charCodeAt(this.pos) === LEFT_BRACE) {
      this.pos++;
      this.readLabels(labels);
      this.skipBlanks();
    }
    this.labels = labels;
    const valueStart = this.pos;
    const valueText = this.readToken();
    if (valueText === '') this.fail('expected a value');
    const value = parseSampleValue(valueText);
    if (value === undefined) {
      this.pos = valueStart;
      this.fail(`invalid value "${valueText}"`);
    }
    this.value = value;
    this.skipBlanks();
    if (this.pos === this.end) {
      this.timestampMs = undefined;
      return;
    }
    const timestampText = this.readToken();
    const timestampMs = parseTimestamp(timestampText);
    if (timestampMs === undefined) this.fail(`invalid timestamp "${timestampText}"`);
    this.skipBlanks();
    if (this.pos !== this.end) this.fail(`unexpected text after the timestamp: "${this.readRestTrimmed()}"`);
    this.timestampMs = timestampMs;
  }

  readHelpText(): string {
    const { text, end } = this;
    let pos = this.pos;
    let chunkStart = pos;
    let help = '';
    while (pos < end) {
      if (text.charCodeAt(pos) !== BACKSLASH) {
        pos++;
        continue;
      }
      help += text.slice(chunkStart, pos);
      const escaped = pos + 1 < end ? text.charCodeAt(pos + 1) : NaN;
      if (escaped === BACKSLASH) help += '\\';
      else if (escaped === LOWER_N) help += '\n';
      else this.fail(`invalid escape "\\${text.charAt(pos + 1)}" in HELP text`);
      pos += 2;
      chunkStart = pos;
    }
    this.pos = end;
    return help + text.slice(chunkStart, end);
  }

  private readLabels(labels: Record<string, string>): void {
    const { text, end } = this;
    for (;;) {
      this.skipBlanks();
      if (this.pos === end) this.fail('label set is not closed');
      if (text.charCodeAt(this.pos) === RIGHT_BRACE) {
        this.pos++;
        return;
      }
      const name = this.readLabelName();
      this.skipBlanks();
      if (text.charCodeAt(this.pos) !== EQUALS) this.fail(`expected "=" after label ${name}`);
      this.pos++;
      this.skipBlanks();
      if (text.charCodeAt(this.pos) !== QUOTE) this.fail(`expected a quoted value for label ${name}`);
      this.pos++;
      const value = this.readLabelValue(name);
      if (Object.hasOwn(labels, name)) this.fail(`label ${name} appears twice`);
      if (name === '__proto__') {
        Object.defineProperty(labels, name, { value, enumerable: true, writable: true, configurable: true });
      } else {
        labels[name] = value;
      }
      this.skipBlanks();
      const separator = text.charCodeAt(this.pos);
      if (separator === COMMA) this.pos++;
      else if (separator !== RIGHT_BRACE) this.fail(`expected "," or "}" after the value of label ${name}`);
    }
  }

  private readLabelName(): string {
    const { text, end } = this;
    const start = this.pos;
    let pos = start;
    while (pos < end && isLabelNameChar(text.charCodeAt(pos), pos === start)) pos++;
    if (pos === start) this.fail(`expected a label name, found "${text.charAt(pos)}"`);
    this.pos = pos;
    const name = text.slice(start, pos);
    if (name === '__name__') this.fail('label name __name__ is reserved');
    return name;
  }

  /** Reads from after the opening quote to after the closing one. */
  private readLabelValue(labelName: string): string {
    const { text, end } = this;
    const start = this.pos;
    // Native searches beat a character loop; values with escapes are rare and take the slow path.
    const quote = text.indexOf('"', start);
    if (quote !== -1 && quote < end) {
      const value = text.slice(start, quote);
      if (!value.includes('\\')) {
        this.pos = quote + 1;
        return value;
      }
    }
    return this.readEscapedLabelValue(labelName, start);
  }

  private readEscapedLabelValue(labelName: string, start: number): string {
    const { text, end } = this;
    let value = '';
    let chunkStart = start;
    let pos = start;
    while (pos < end) {
      const c = text.charCodeAt(pos);
      if (c === QUOTE) {
        this.pos = pos + 1;
        return value + text.slice(chunkStart, pos);
      }
      if (c !== BACKSLASH) {
        pos++;
        continue;
      }
      value += text.slice(chunkStart, pos);
      const escaped = pos + 1 < end ? text.charCodeAt(pos + 1) : NaN;
      if (escaped === BACKSLASH) value += '\\';
      else if (escaped === QUOTE) value += '"';
      else if (escaped === LOWER_N) value += '\n';
      else this.fail(`invalid escape "\\${text.charAt(pos + 1)}" in the value of label ${labelName}`);
      pos += 2;
      chunkStart = pos;
    }
    return this.fail(`value of label ${labelName} is not closed`);
  }
}

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

function isLetter(c: number): boolean {
  return (c >= LOWER_A && c <= LOWER_Z) || (c >= UPPER_A && c <= UPPER_Z) || c === UNDERSCORE;
}

function isDigit(c: number): boolean {
  return c >= DIGIT_0 && c <= DIGIT_9;
}

function isMetricNameChar(c: number, first: boolean): boolean {
  return isLetter(c) || c === COLON || (!first && isDigit(c));
}

function isLabelNameChar(c: number, first: boolean): boolean {
  return isLetter(c) || (!first && isDigit(c));
}

/** A sample value as Go's ParseFloat reads a decimal one; undefined when it is not a number. */
function parseSampleValue(text: string): number | undefined {
  let decimal = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isDigit(c) && c !== DOT && c !== LOWER_E && c !== UPPER_E && c !== PLUS && c !== MINUS) {
      decimal = false;
      break;
    }
  }
  if (decimal) {
    // Number('') is 0 and Number('0x1F') is 31: the first cannot reach here, the second is not decimal.
    const value = text === '' ? NaN : Number(text);
    return Number.isNaN(value) ? undefined : value;
  }
  switch (text.toLowerCase()) {
    case 'nan':
      return NaN;
    case 'inf':
    case '+inf':
    case 'infinity':
    case '+infinity':
      return Infinity;
    case '-inf':
    case '-infinity':
      return -Infinity;
    default:
      return undefined;
  }
}

function parseTimestamp(text: string): number | undefined {
  const first = text.charCodeAt(0);
  const digitsStart = first === MINUS || first === PLUS ? 1 : 0;
  if (text.length === digitsStart) return undefined;
  for (let i = digitsStart; i < text.length; i++) {
    if (!isDigit(text.charCodeAt(i))) return undefined;
  }
  const timestampMs = Number(text);
  return Math.abs(timestampMs) < MAX_TIMESTAMP_MS ? timestampMs : undefined;
}
