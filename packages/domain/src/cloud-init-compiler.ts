import {
  isMap,
  isNode,
  isScalar,
  parseDocument,
  Scalar,
  visit,
  type Document,
  type Node,
  type ScalarTag,
  type Tags,
} from 'yaml';

import { checkVariableName, type Resolution, type TemplateValue } from './cloud-init-variables.js';
import { isPortableYamlText, yamlDoubleQuoted } from './yaml-double-quoted.js';
import {
  positionFinder,
  scanTemplate,
  type SourcePosition,
  type TemplateExpression,
  type TemplateProblem,
} from './template-expression.js';

/**
 * Compiles a cloud-init template into the YAML a VM receives. The template is parsed as YAML first,
 * with each `{{ … }}` held by a placeholder; values then go into the parsed scalars and the document is
 * written out again. A value is therefore always data inside one scalar: whatever it holds (`: `, a
 * newline, `#`, quotes) it cannot add a key, end a block or start a document, and a template whose YAML
 * is broken is refused before any value is involved.
 */

export const CLOUD_INIT_DOCUMENTS = ['userData', 'vendorData', 'networkData'] as const;
export type CloudInitDocument = (typeof CLOUD_INIT_DOCUMENTS)[number];

/** The first line cloud-init needs to read user data (and vendor data) as cloud-config. */
export const CLOUD_CONFIG_HEADER = '#cloud-config';

/**
 * The three documents go into one Kubernetes Secret, which holds at most 1 MiB; a third of that each
 * leaves room for the Secret's other keys.
 */
const MAX_COMPILED_DOCUMENT_BYTES = 320 * 1024;

export type VariableResolver = (path: readonly string[]) => Resolution;

export type DocumentResult =
  | { readonly ok: true; readonly output: string }
  | { readonly ok: false; readonly problems: readonly TemplateProblem[] };

/** Resolves names only, for checking a template when it is saved: values come when a VM is ordered. */
export const checkNamesOnly: VariableResolver = checkVariableName;

const STRING_TAG = 'tag:yaml.org,2002:str';
/** The library would write a string value `<<` as a merge key; the template's own `<<:` keys stay as they are. */
const MERGE_TAG = 'tag:yaml.org,2002:merge';

interface Placeholders {
  readonly source: string;
  readonly token: (index: number) => string;
  readonly pattern: RegExp;
  /** Maps an offset of `source` back to the template. */
  readonly originalOffset: (offset: number) => number;
}

/** Replaces each expression with a token no template text contains, keeping the way back to positions. */
function withPlaceholders(text: string, expressions: readonly TemplateExpression[]): Placeholders {
  let stem = 'nrtpl';
  for (let n = 0; text.includes(stem + 'x'); n++) stem = `nrtpl${n}`;
  const token = (index: number) => `${stem}x${index}x`;
  const shifts: { start: number; end: number; originalStart: number; delta: number }[] = [];
  let source = '';
  let from = 0;
  expressions.forEach((e, index) => {
    source += text.slice(from, e.start);
    const start = source.length;
    source += token(index);
    shifts.push({ start, end: source.length, originalStart: e.start, delta: e.end - source.length });
    from = e.end;
  });
  source += text.slice(from);
  return {
    source,
    token,
    pattern: new RegExp(`${stem}x(\\d+)x`, 'g'),
    originalOffset: (offset) => {
      let delta = 0;
      for (const shift of shifts) {
        if (offset < shift.start) break;
        if (offset < shift.end) return shift.originalStart;
        delta = shift.delta;
      }
      return offset + delta;
    },
  };
}

/**
 * Strings the compiler wrote are marked; those holding characters a YAML 1.1 reader could take for a
 * line break get our own fully escaped double quotes, the rest are left to the library. Merges are not
 * resolved (`merge: false` and no merge tag): cloud-init's parser does that with the output.
 */
function tagsWithPortableStrings(marked: WeakSet<Node>): (tags: Tags) => Tags {
  return (tags) =>
    tags
      .filter((tag) => typeof tag === 'string' || tag.tag !== MERGE_TAG)
      .map((tag) => {
        if (typeof tag === 'string' || tag.tag !== STRING_TAG || tag.collection !== undefined) return tag;
        const original: ScalarTag = tag;
        const wrapped: ScalarTag = {
          ...original,
          stringify(item, ctx, onComment, onChompKeep) {
            if (
              isScalar(item) &&
              marked.has(item) &&
              typeof item.value === 'string' &&
              !isPortableYamlText(item.value)
            )
              return yamlDoubleQuoted(item.value);
            if (original.stringify === undefined) throw new Error('the YAML string tag has no stringify');
            return original.stringify(item, ctx, onComment, onChompKeep);
          },
        };
        return wrapped;
      });
}

class DocumentCompiler {
  readonly problems: TemplateProblem[] = [];
  readonly #consumed = new Set<number>();
  readonly #marked = new WeakSet<Node>();
  readonly #at: (offset: number) => SourcePosition;
  #doc: Document | undefined;

  constructor(
    private readonly kind: CloudInitDocument,
    private readonly text: string,
    private readonly expressions: readonly TemplateExpression[],
    private readonly placeholders: Placeholders,
    private readonly resolve: VariableResolver,
  ) {
    this.#at = positionFinder(text);
  }

  compile(): string | undefined {
    const doc = parseDocument(this.placeholders.source, {
      version: '1.1',
      uniqueKeys: true,
      prettyErrors: false,
      merge: false,
      customTags: tagsWithPortableStrings(this.#marked),
    });
    this.#doc = doc;
    for (const error of doc.errors) {
      const message = error.code === 'MULTIPLE_DOCS' ? 'must be a single YAML document' : error.message;
      this.problems.push({ ...this.#positionOf(error.pos[0]), message });
    }
    if (this.problems.length > 0) return undefined;
    this.#checkShape(doc);
    if (doc.contents === null) {
      // Nothing but comments, where expressions stay as written: the template is its own output.
      this.expressions.forEach((_e, index) => this.#consumed.add(index));
      return this.problems.length > 0 ? undefined : this.text;
    }
    visit(doc, {
      Scalar: (key, node) => {
        if (key !== 'key') return this.#substitute(node);
        this.#refuseInKey(node);
        return undefined;
      },
    });
    this.#restoreComments(doc);
    this.expressions.forEach((e, index) => {
      if (!this.#consumed.has(index))
        this.problems.push({ ...e.position, message: `${e.source} can only stand in a value or a comment` });
    });
    if (this.problems.length > 0) return undefined;
    const output = doc.toString({ lineWidth: 0 });
    if (new TextEncoder().encode(output).length > MAX_COMPILED_DOCUMENT_BYTES) {
      this.problems.push({
        line: 1,
        column: 1,
        message: `the compiled ${this.kind} is larger than ${MAX_COMPILED_DOCUMENT_BYTES} bytes`,
      });
      return undefined;
    }
    return output;
  }

  #positionOf(offset: number): SourcePosition {
    return this.#at(this.placeholders.originalOffset(offset));
  }

  #checkShape(doc: Document): void {
    const root = doc.contents;
    if (this.kind !== 'networkData') {
      const firstLine = this.text.split('\n', 1)[0]?.trimEnd();
      if (firstLine !== CLOUD_CONFIG_HEADER)
        this.problems.push({
          line: 1,
          column: 1,
          message: `must start with the line ${CLOUD_CONFIG_HEADER}`,
        });
      if (root !== null && !isMap(root))
        this.problems.push({
          ...this.#nodePosition(root),
          message: 'must be a mapping of cloud-config keys',
        });
      return;
    }
    const inner = isMap(root) && root.has('network') ? root.get('network', true) : root;
    const version = isMap(inner) ? inner.get('version') : undefined;
    if (version !== 1 && version !== 2)
      this.problems.push({
        ...(isNode(inner) ? this.#nodePosition(inner) : { line: 1, column: 1 }),
        message:
          'network data must be a mapping with version: 1 or version: 2 (at the top or under network:)',
      });
  }

  #nodePosition(node: Node): SourcePosition {
    return this.#positionOf(node.range?.[0] ?? 0);
  }

  #indicesIn(text: string): number[] {
    return [...text.matchAll(this.placeholders.pattern)].map((m) => Number(m[1]));
  }

  #refuseInKey(node: Scalar): void {
    if (typeof node.value !== 'string') return;
    for (const index of this.#indicesIn(node.value)) {
      this.#consumed.add(index);
      const e = this.expressions[index];
      if (e !== undefined)
        this.problems.push({ ...e.position, message: `${e.source} cannot be a mapping key` });
    }
  }

  #valueOf(index: number): TemplateValue | undefined {
    this.#consumed.add(index);
    const e = this.expressions[index];
    if (e === undefined) return undefined;
    const { expression } = e;
    if (expression.kind === 'literal') return expression.text;
    if (expression.kind === 'invalid') {
      this.problems.push({ ...e.position, message: expression.problem });
      return undefined;
    }
    const resolution = this.resolve(expression.path);
    if ('problem' in resolution) {
      this.problems.push({ ...e.position, message: resolution.problem });
      return undefined;
    }
    return resolution.value;
  }

  /** A scalar holding placeholders gets their values; one that is a single bare placeholder takes its type. */
  #substitute(node: Scalar): Node | undefined {
    // The visit goes on into a node it was handed back; what the compiler wrote holds values, not placeholders.
    if (typeof node.value !== 'string' || this.#marked.has(node)) return undefined;
    const indices = this.#indicesIn(node.value);
    const only = indices[0];
    if (only === undefined) return undefined;
    if (indices.length === 1 && node.type === Scalar.PLAIN && node.value === this.placeholders.token(only)) {
      const value = this.#valueOf(only);
      if (value === undefined) return undefined;
      return this.#nodeFor(value, node);
    }
    const text = node.value.replace(this.placeholders.pattern, (_token, digits: string) => {
      const index = Number(digits);
      const value = this.#valueOf(index);
      if (typeof value === 'object') {
        const e = this.expressions[index];
        if (e !== undefined)
          this.problems.push({
            ...e.position,
            message: `${e.source} is a list: it can only be a whole value, unquoted (key: ${e.source})`,
          });
        return '';
      }
      return value === undefined ? '' : String(value);
    });
    node.value = text;
    this.#mark(node);
    return undefined;
  }

  #nodeFor(value: TemplateValue, original: Scalar): Node | undefined {
    if (typeof value === 'boolean') return new Scalar(value);
    if (typeof value === 'string') {
      original.value = value;
      this.#mark(original);
      return undefined;
    }
    const doc = this.#doc;
    if (doc === undefined) throw new Error('substituting outside a document');
    const list = doc.createNode([...value]);
    visit(list, {
      Scalar: (_key, item) => {
        this.#mark(item);
      },
    });
    return list;
  }

  /** Plain scalars become quoted: a value must never be read back as a number, a boolean or YAML 1.1's `=`. */
  #mark(node: Scalar): void {
    if (node.type === undefined || node.type === Scalar.PLAIN) node.type = Scalar.QUOTE_DOUBLE;
    this.#marked.add(node);
  }

  /** Comments are not templated: an expression in one stays as written. */
  #restoreComments(doc: Document): void {
    const restore = (comment: string | null | undefined): string | null | undefined =>
      comment?.replace(this.placeholders.pattern, (_token, digits: string) => {
        const index = Number(digits);
        this.#consumed.add(index);
        return this.expressions[index]?.source ?? '';
      });
    doc.commentBefore = restore(doc.commentBefore) ?? null;
    doc.comment = restore(doc.comment) ?? null;
    visit(doc, (_key, node) => {
      if (!isNode(node)) return;
      if (node.commentBefore) node.commentBefore = restore(node.commentBefore);
      if (node.comment) node.comment = restore(node.comment);
    });
  }
}

/** One document of a template (user data, vendor data or network data) compiled with `resolve`'s values. */
export function compileCloudInitDocument(
  kind: CloudInitDocument,
  text: string,
  resolve: VariableResolver,
): DocumentResult {
  const scan = scanTemplate(text);
  if (scan.problems.length > 0) return { ok: false, problems: scan.problems };
  const compiler = new DocumentCompiler(
    kind,
    text,
    scan.expressions,
    withPlaceholders(text, scan.expressions),
    resolve,
  );
  const output = compiler.compile();
  if (output === undefined) return { ok: false, problems: sortedByPosition(compiler.problems) };
  return { ok: true, output };
}

function sortedByPosition(problems: readonly TemplateProblem[]): TemplateProblem[] {
  return [...problems].sort((a, b) => a.line - b.line || a.column - b.column);
}

/** A template's documents; vendor data and network data are optional (empty: not sent). */
export interface CloudInitDocuments {
  readonly userData: string;
  readonly vendorData?: string | undefined;
  readonly networkData?: string | undefined;
}

export interface CloudInitProblem extends TemplateProblem {
  readonly document: CloudInitDocument;
}

export type CloudInitCompileResult =
  | { readonly ok: true; readonly output: CloudInitDocuments }
  | { readonly ok: false; readonly problems: readonly CloudInitProblem[] };

/** Every document of a template, with every problem of every document when any has one. */
export function compileCloudInit(
  template: CloudInitDocuments,
  resolve: VariableResolver,
): CloudInitCompileResult {
  const output: { -readonly [K in keyof CloudInitDocuments]: string } = { userData: '' };
  const problems: CloudInitProblem[] = [];
  for (const document of CLOUD_INIT_DOCUMENTS) {
    const text = template[document];
    if (text === undefined || (document !== 'userData' && text.trim() === '')) continue;
    const result = compileCloudInitDocument(document, text, resolve);
    if (result.ok) output[document] = result.output;
    else problems.push(...result.problems.map((p) => ({ ...p, document })));
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, output };
}

/** `userData 3:14: …`, the form problems take in an error message. */
export function describeCloudInitProblem(problem: CloudInitProblem): string {
  return `line ${problem.line}, column ${problem.column}: ${problem.message}`;
}
