import fc from 'fast-check';

import { invalidBody, roughBody } from './invalid-input.test-support.js';
import type { JsonSchema } from './openapi-operations.test-support.js';

/** A request body as sent on the wire, and what is hostile about it. */
export interface HostileRequest {
  /** undefined: no body at all. */
  readonly payload: string | undefined;
  readonly contentType: string;
  readonly mutation: string;
  /**
   * Whether the server must refuse it (4xx): always (malformed JSON, too large), when the route's body
   * schema rules it out (a wrong type, unstorable text, another media type), or not necessarily.
   */
  readonly refusal: 'always' | 'byBodySchema' | 'maybe';
}

const JSON_TYPE = 'application/json';
/** Long enough to overflow every column's limit, short enough to pass the 1 MiB body limit. */
const HUGE_LENGTH = 300_000;
/** Deeper than any schema and than PostgreSQL's jsonb parser recurses comfortably. */
const DEEP_LEVELS = 5_000;

type Path = readonly (string | number)[];

function stringLeaves(value: unknown, path: Path = []): Path[] {
  if (typeof value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringLeaves(item, [...path, i]));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, item]) => stringLeaves(item, [...path, key]));
  return [];
}

function replaceAt(value: unknown, path: Path, replacement: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return replacement;
  if (Array.isArray(value))
    return (value as unknown[]).map((item, i) => (i === head ? replaceAt(item, rest, replacement) : item));
  const object = value as Record<string, unknown>;
  return { ...object, [head]: replaceAt(object[head], rest, replacement) };
}

/** Puts `text` in one of the body's strings (chosen by `pick`), or under a key of its own if it has none. */
function withText(body: Record<string, unknown>, pick: number, text: string): unknown {
  const leaves = stringLeaves(body);
  const path = leaves[pick % Math.max(leaves.length, 1)];
  return path === undefined ? { ...body, note: text } : replaceAt(body, path, text);
}

function deepObject(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

function deepArray(levels: number): string {
  return `${'['.repeat(levels)}${']'.repeat(levels)}`;
}

function json(body: unknown, mutation: string, refusal: HostileRequest['refusal'] = 'maybe'): HostileRequest {
  return { payload: JSON.stringify(body), contentType: JSON_TYPE, mutation, refusal };
}

/** The body with raw JSON text at `key`: JSON.stringify would recurse as deep as the value itself. */
function spliced(body: Record<string, unknown>, key: string, raw: string, what: string): HostileRequest {
  const payload = JSON.stringify({ ...body, [key]: 0 }).replace(
    `${JSON.stringify(key)}:0`,
    `${JSON.stringify(key)}:${raw}`,
  );
  return { payload, contentType: JSON_TYPE, mutation: `${what} in ${key}`, refusal: 'maybe' };
}

/** Bodies a careless or hostile client sends, roughly shaped like the schema so that some reach the service. */
export function hostileRequest(schema: JsonSchema): fc.Arbitrary<HostileRequest> {
  const keys = Object.keys(schema.properties ?? {});
  const base = roughBody(schema);
  const pick = fc.nat();
  const property = keys.length === 0 ? fc.constant('nested') : fc.constantFrom(...keys);
  return fc.oneof(
    invalidBody(schema).map((invalid) => json(invalid.body, invalid.mutation, 'byBodySchema')),
    fc
      .tuple(base, pick, fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfffy'))
      .map(([body, at, text]) =>
        json(withText(body, at, text), `unstorable text ${JSON.stringify(text)}`, 'byBodySchema'),
      ),
    fc
      .tuple(base, pick, fc.constantFrom('x', '\u00e9', '\u{1F680}'))
      .map(([body, at, unit]) =>
        json(withText(body, at, unit.repeat(HUGE_LENGTH / unit.length)), 'a huge string'),
      ),
    fc
      .tuple(base, property)
      .map(([body, key]) =>
        spliced(body, key, deepObject(DEEP_LEVELS), `a ${String(DEEP_LEVELS)}-level object`),
      ),
    fc
      .tuple(base, property)
      .map(([body, key]) =>
        spliced(body, key, deepArray(DEEP_LEVELS), `a ${String(DEEP_LEVELS)}-level array`),
      ),
    fc
      .tuple(base, property)
      .map(([body, key]) =>
        json({ ...body, [key]: Array.from({ length: 50_000 }, (_, i) => i) }, `50000 items in ${key}`),
      ),
  );
}

/** The same for every route: no body, empty and malformed JSON, other media types, prototype keys. */
export const MALFORMED_REQUESTS: readonly HostileRequest[] = [
  { payload: undefined, contentType: JSON_TYPE, mutation: 'no body', refusal: 'maybe' },
  { payload: '', contentType: JSON_TYPE, mutation: 'an empty JSON body', refusal: 'always' },
  { payload: '{"name":', contentType: JSON_TYPE, mutation: 'truncated JSON', refusal: 'always' },
  { payload: 'not json', contentType: JSON_TYPE, mutation: 'text labelled JSON', refusal: 'always' },
  { payload: '{"a":1,}', contentType: JSON_TYPE, mutation: 'a trailing comma', refusal: 'always' },
  { payload: '{"name":"x"}', contentType: 'text/plain', mutation: 'text/plain', refusal: 'byBodySchema' },
  {
    payload: 'name=x',
    contentType: 'application/x-www-form-urlencoded',
    mutation: 'a form',
    refusal: 'always',
  },
  {
    payload: '{"__proto__":{"role":"owner"}}',
    contentType: JSON_TYPE,
    mutation: 'a __proto__ key',
    refusal: 'always',
  },
  {
    payload: '{"constructor":{"prototype":{"role":"owner"}}}',
    contentType: JSON_TYPE,
    mutation: 'a constructor.prototype key',
    refusal: 'always',
  },
  {
    payload: JSON.stringify('x'.repeat(2 * 1024 * 1024)),
    contentType: JSON_TYPE,
    mutation: '2 MiB',
    refusal: 'always',
  },
];
