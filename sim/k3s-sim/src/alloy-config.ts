/**
 * The part of Alloy's configuration language the agent stack writes (`renderAlloyConfig` in deploy):
 * blocks with an optional label, attributes, strings, numbers, booleans, lists, objects, references
 * (`prometheus.relabel.x.receiver`) and `sys.env("NAME")`. Read into the pipeline it describes: one
 * scrape, the relabel components it forwards through, and the remote write it ends in.
 */

export interface RelabelRule {
  readonly sourceLabels: readonly string[];
  readonly separator: string;
  readonly regex: string;
  readonly targetLabel: string | undefined;
  readonly replacement: string;
  readonly action: string;
}

export interface AlloyPipeline {
  /** `prometheus.scrape.<label>`: Alloy's default `job`. */
  readonly component: string;
  /** The target's labels, `__address__` included. */
  readonly target: Readonly<Record<string, string>>;
  readonly metricsPath: string;
  readonly params: Readonly<Record<string, readonly string[]>>;
  readonly scrapeIntervalMs: number;
  /** Every rule of every relabel component on the way, in order. */
  readonly rules: readonly RelabelRule[];
  readonly remoteWriteUrl: string;
  readonly bearer: { readonly file: string } | { readonly env: string } | undefined;
}

export class AlloyConfigError extends Error {}

type Value =
  | string
  | number
  | boolean
  | readonly Value[]
  | { readonly kind: 'object'; readonly fields: Readonly<Record<string, Value>> }
  | { readonly kind: 'ref'; readonly name: string }
  | { readonly kind: 'call'; readonly name: string; readonly args: readonly Value[] };

interface Block {
  readonly name: string;
  readonly label: string | undefined;
  readonly attributes: Readonly<Record<string, Value>>;
  readonly blocks: readonly Block[];
}

const TOKEN = /\s+|\/\/[^\n]*|("(?:[^"\\]|\\.)*")|([A-Za-z_][A-Za-z0-9_.]*)|(-?\d+(?:\.\d+)?)|([{}[\]=,()])/y;

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (m === null) throw new AlloyConfigError(`unexpected character at offset ${String(at)}`);
    const token = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (token !== undefined) tokens.push(token);
  }
  return tokens;
}

class Parser {
  private at = 0;
  constructor(private readonly tokens: readonly string[]) {}

  body(closing: string | undefined): Block {
    const attributes: Record<string, Value> = {};
    const blocks: Block[] = [];
    while (this.peek() !== closing) {
      const name = this.next();
      if (!/^[A-Za-z_]/.test(name)) throw new AlloyConfigError(`expected a name, got ${name}`);
      if (this.peek() === '=') {
        this.next();
        attributes[name] = this.value();
        continue;
      }
      const label = this.peek()?.startsWith('"') === true ? this.string() : undefined;
      this.expect('{');
      const inner = this.body('}');
      this.expect('}');
      blocks.push({ ...inner, name, label });
    }
    return { name: '', label: undefined, attributes, blocks };
  }

  private value(): Value {
    const token = this.peek();
    if (token === undefined) throw new AlloyConfigError('unexpected end of the configuration');
    if (token.startsWith('"')) return this.string();
    if (token === '[') return this.list(']', () => this.value());
    if (token === '{') {
      const fields: Record<string, Value> = {};
      this.list('}', () => {
        const key = this.peek()?.startsWith('"') === true ? this.string() : this.next();
        this.expect('=');
        fields[key] = this.value();
        return 0;
      });
      return { kind: 'object', fields };
    }
    this.next();
    if (/^-?\d/.test(token)) return Number(token);
    if (token === 'true' || token === 'false') return token === 'true';
    if (this.peek() === '(') return { kind: 'call', name: token, args: this.list(')', () => this.value()) };
    return { kind: 'ref', name: token };
  }

  private list<T>(closing: string, item: () => T): T[] {
    this.next();
    const items: T[] = [];
    while (this.peek() !== closing) {
      items.push(item());
      if (this.peek() === ',') this.next();
      else if (this.peek() !== closing) throw new AlloyConfigError(`expected , or ${closing}`);
    }
    this.next();
    return items;
  }

  private string(): string {
    return JSON.parse(this.next()) as string;
  }

  private expect(token: string): void {
    const got = this.next();
    if (got !== token) throw new AlloyConfigError(`expected ${token}, got ${got}`);
  }

  private peek(): string | undefined {
    return this.tokens[this.at];
  }

  private next(): string {
    const token = this.tokens[this.at++];
    if (token === undefined) throw new AlloyConfigError('unexpected end of the configuration');
    return token;
  }
}

/** Reads the configuration; anything outside the subset is an AlloyConfigError. */
export function parseAlloyPipeline(text: string): AlloyPipeline {
  const root = new Parser(tokenize(text)).body(undefined);
  const scrapes = root.blocks.filter((b) => b.name === 'prometheus.scrape');
  const scrape = scrapes[0];
  if (scrape === undefined || scrapes.length > 1)
    throw new AlloyConfigError('expected exactly one prometheus.scrape component');
  const targets = scrape.attributes.targets;
  const target = isList(targets) && targets.length === 1 ? stringFields(targets[0]) : undefined;
  if (target?.__address__ === undefined) throw new AlloyConfigError('prometheus.scrape: expected one target');
  const rules: RelabelRule[] = [];
  let next = receiverOf(scrape);
  for (let hop = 0; ; hop++) {
    if (hop > root.blocks.length) throw new AlloyConfigError('forward_to goes round in a circle');
    const block = root.blocks.find((b) => `${b.name}.${b.label ?? ''}.receiver` === next);
    if (block === undefined) throw new AlloyConfigError(`forward_to: no component ${next}`);
    if (block.name === 'prometheus.remote_write') return pipeline(scrape, target, rules, block);
    if (block.name !== 'prometheus.relabel')
      throw new AlloyConfigError(`unsupported component ${block.name}`);
    rules.push(...block.blocks.filter((b) => b.name === 'rule').map(rule));
    next = receiverOf(block);
  }
}

function pipeline(
  scrape: Block,
  target: Record<string, string>,
  rules: RelabelRule[],
  write: Block,
): AlloyPipeline {
  const endpoint = write.blocks.find((b) => b.name === 'endpoint');
  const url = endpoint?.attributes.url;
  if (typeof url !== 'string') throw new AlloyConfigError('prometheus.remote_write: endpoint.url is missing');
  const file = endpoint?.attributes.bearer_token_file;
  const token = endpoint?.attributes.bearer_token;
  const env =
    typeof token === 'object' && 'kind' in token && token.kind === 'call' && token.name === 'sys.env'
      ? token.args[0]
      : undefined;
  const params = scrape.attributes.params;
  return {
    component: `prometheus.scrape.${scrape.label ?? ''}`,
    target,
    metricsPath: text(scrape.attributes.metrics_path) ?? '/metrics',
    params: Object.fromEntries(
      Object.entries(isObject(params) ? params.fields : {}).map(([k, v]) => [
        k,
        isList(v) ? v.filter((x): x is string => typeof x === 'string') : [],
      ]),
    ),
    scrapeIntervalMs: durationMs(text(scrape.attributes.scrape_interval) ?? '60s'),
    rules,
    remoteWriteUrl: url,
    bearer: typeof file === 'string' ? { file } : typeof env === 'string' ? { env } : undefined,
  };
}

const ACTIONS: ReadonlySet<string> = new Set(['keep', 'drop', 'replace', 'labeldrop', 'labelkeep']);

function rule(block: Block): RelabelRule {
  const a = block.attributes;
  const sources = a.source_labels;
  const action = text(a.action) ?? 'replace';
  if (!ACTIONS.has(action)) throw new AlloyConfigError(`rule: action ${action} is not supported here`);
  return {
    sourceLabels: isList(sources) ? sources.filter((s): s is string => typeof s === 'string') : [],
    separator: text(a.separator) ?? ';',
    regex: text(a.regex) ?? '(.*)',
    targetLabel: text(a.target_label),
    replacement: text(a.replacement) ?? '$1',
    action,
  };
}

function receiverOf(block: Block): string {
  const forward = block.attributes.forward_to;
  const first = isList(forward) && forward.length === 1 ? forward[0] : undefined;
  if (typeof first !== 'object' || !('kind' in first) || first.kind !== 'ref')
    throw new AlloyConfigError(`${block.name}: forward_to must name one receiver`);
  return first.name;
}

function stringFields(value: Value | undefined): Record<string, string> | undefined {
  if (!isObject(value)) return undefined;
  return Object.fromEntries(
    Object.entries(value.fields).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

function isList(value: Value | undefined): value is readonly Value[] {
  return Array.isArray(value);
}

function isObject(value: Value | undefined): value is { kind: 'object'; fields: Record<string, Value> } {
  return typeof value === 'object' && 'kind' in value && value.kind === 'object';
}

function text(value: Value | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go duration of the kinds a scrape interval uses: `30s`, `1m30s`, `500ms`. */
export function durationMs(duration: string): number {
  const parts = [...duration.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== duration)
    throw new AlloyConfigError(`not a duration: ${duration}`);
  return parts.reduce((sum, p) => sum + Number(p[1]) * (UNITS[p[2] ?? ''] ?? 0), 0);
}
