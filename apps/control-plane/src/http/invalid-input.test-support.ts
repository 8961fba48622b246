import fc from 'fast-check';

import type { JsonSchema } from './openapi-operations.test-support.js';

/** A request body that breaks its schema on purpose, and the field the break is at. */
export interface InvalidBody {
  readonly body: unknown;
  /** The field path the server must name ('' when the whole body is wrong). */
  readonly field: string;
  readonly mutation: string;
}

const JSON_SAMPLES: readonly unknown[] = [12345, 'text', true, { nested: 1 }, ['item'], null];

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'number' ? 'number' : typeof value;
}

function allowedTypes(schema: JsonSchema): Set<string> | undefined {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined) {
    const all = alternatives.map(allowedTypes);
    if (all.some((a) => a === undefined)) return undefined;
    return new Set(all.flatMap((a) => [...(a ?? [])]));
  }
  if (schema.type === undefined)
    return schema.enum === undefined ? undefined : new Set(schema.enum.map(jsonType));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return new Set(types.map((type) => (type === 'integer' ? 'number' : type)));
}

/** Values that roughly follow the schema (they need not be valid: the mutation guarantees invalidity). */
function roughValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.enum !== undefined && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined && alternatives.length > 0)
    return fc.oneof(...alternatives.map((s) => roughValue(s, depth)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 20, 20) });
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1000, -1e9),
        max: Math.min(schema.maximum ?? 1000, 1e9),
      });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return depth > 2
        ? fc.constant([])
        : fc.array(roughValue(schema.items ?? {}, depth + 1), { maxLength: 3 });
    case 'object':
      return depth > 2 ? fc.constant({}) : roughObject(schema, depth + 1);
    default:
      return fc.constant(null);
  }
}

function roughObject(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, property] of Object.entries(properties)) record[key] = roughValue(property, depth);
  return fc.record(record, { requiredKeys: schema.required ?? [] });
}

/** A body that roughly follows the schema (it may or may not be valid). */
export function roughBody(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  return roughObject(schema, 1);
}

function outOfRange(schema: JsonSchema): unknown[] {
  const values: unknown[] = [];
  if (schema.enum !== undefined) values.push('NOT_A_KNOWN_VALUE');
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'string' && schema.maxLength !== undefined) values.push('x'.repeat(schema.maxLength + 1));
  if (type === 'string' && (schema.minLength ?? 0) > 0) values.push('');
  if ((type === 'integer' || type === 'number') && schema.maximum !== undefined)
    values.push(schema.maximum + 1);
  if ((type === 'integer' || type === 'number') && schema.minimum !== undefined)
    values.push(schema.minimum - 1);
  if (type === 'integer') values.push(1.5);
  if (type === 'array' && schema.maxItems !== undefined)
    values.push(Array.from({ length: schema.maxItems + 1 }, () => 'x'));
  return values;
}

/** One guaranteed violation per body: wrong type, missing required field, unknown field, or out of range. */
export function invalidBody(schema: JsonSchema): fc.Arbitrary<InvalidBody> {
  const bodyTypes = allowedTypes(schema);
  const notAnObject = fc
    .constantFrom<unknown>(
      ...[[], 'text', 42, true, null].filter((v) => bodyTypes?.has(jsonType(v)) !== true),
    )
    .map((body) => ({ body, field: '', mutation: 'not an object' }));
  const properties = Object.entries(schema.properties ?? {});
  const mutations: fc.Arbitrary<InvalidBody>[] = [notAnObject];
  const base = roughObject(schema, 1);
  for (const key of schema.required ?? []) {
    mutations.push(
      base.map((b) => ({ body: omit(b, key), field: key, mutation: `without required ${key}` })),
    );
  }
  for (const [key, property] of properties) {
    const allowed = allowedTypes(property);
    const wrong = allowed === undefined ? [] : JSON_SAMPLES.filter((v) => !allowed.has(jsonType(v)));
    if (wrong.length > 0) {
      mutations.push(
        fc.tuple(base, fc.constantFrom(...wrong)).map(([b, value]) => ({
          body: { ...b, [key]: value },
          field: key,
          mutation: `${key} of the wrong type`,
        })),
      );
    }
    const outside = outOfRange(property);
    if (outside.length > 0) {
      mutations.push(
        fc.tuple(base, fc.constantFrom(...outside)).map(([b, value]) => ({
          body: { ...b, [key]: value },
          field: key,
          mutation: `${key} out of range`,
        })),
      );
    }
  }
  if (schema.additionalProperties === false) {
    mutations.push(
      base.map((b) => ({ body: { ...b, notAField: 1 }, field: 'notAField', mutation: 'an unknown field' })),
    );
  }
  return fc.oneof(...mutations);
}

function omit(object: Record<string, unknown>, key: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([k]) => k !== key));
}

/** Query parameters with one value of the wrong kind. */
export function invalidQueryValue(schema: JsonSchema): string | undefined {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.enum !== undefined) return 'NOT_A_KNOWN_VALUE';
  if (type === 'integer' || type === 'number') return 'not-a-number';
  if (type === 'string' && schema.maxLength !== undefined) return 'x'.repeat(schema.maxLength + 1);
  if (type === 'string' && schema.format === 'uuid') return 'not-a-uuid';
  if (schema.pattern !== undefined) return '\u0000';
  return undefined;
}

/** A path parameter value its schema refuses: not a UUID for ids, a space (encoded) where a pattern rules. */
export function invalidPathValue(schema: JsonSchema): string {
  return schema.format !== 'uuid' && schema.pattern !== undefined ? 'not%20valid' : 'not-a-uuid';
}
