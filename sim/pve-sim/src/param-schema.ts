import { paramError } from './pve-error.js';

/** A parameter value after validation: what a handler receives. */
type ParamValue = string | number | boolean;
export type Params = Record<string, ParamValue | undefined>;

type Format = (value: string, name: string) => string | undefined;

export interface ParamSpec {
  readonly type: 'string' | 'integer' | 'number' | 'boolean';
  readonly optional?: boolean;
  readonly enum?: readonly string[];
  readonly pattern?: RegExp;
  /** Returns an error text (shown after `invalid format - `) or undefined when the value is fine. */
  readonly format?: Format;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly maxLength?: number;
  /** Another parameter that must be present when this one is. */
  readonly requires?: string;
}

export interface ParamSchema {
  readonly properties: Readonly<Record<string, ParamSpec>>;
  /** Families such as `net[n]`: matched when no named property matches. */
  readonly patternProperties?: readonly (readonly [RegExp, ParamSpec])[];
  readonly additionalProperties?: boolean;
}

const MESSAGES = {
  missing: 'property is missing and it is not optional',
  unknown: 'property is not defined in schema and the schema does not allow additional properties',
};

/**
 * Validates raw request parameters (strings from a query or form body, or JSON values) against a schema
 * with PVE's JSONSchema rules and messages. Collects every error, then throws one 400.
 */
export function validateParams(schema: ParamSchema, raw: Record<string, unknown>): Params {
  const errors: Record<string, string> = {};
  const out: Params = {};
  for (const [name, value] of Object.entries(raw)) {
    const spec = specFor(schema, name);
    if (!spec) {
      if (!schema.additionalProperties) errors[name] = MESSAGES.unknown;
      continue;
    }
    const checked = checkValue(spec, value, name);
    if (typeof checked === 'object') errors[name] = checked.error;
    else out[name] = checked;
  }
  for (const [name, spec] of Object.entries(schema.properties)) {
    if (!spec.optional && raw[name] === undefined && errors[name] === undefined)
      errors[name] = MESSAGES.missing;
  }
  for (const name of Object.keys(out)) {
    const requires = specFor(schema, name)?.requires;
    if (requires !== undefined && out[requires] === undefined && errors[requires] === undefined) {
      errors[requires] = `missing property - '${name}' requires this property`;
    }
  }
  if (Object.keys(errors).length > 0) throw paramError(errors);
  return out;
}

function specFor(schema: ParamSchema, name: string): ParamSpec | undefined {
  if (Object.hasOwn(schema.properties, name)) return schema.properties[name];
  return schema.patternProperties?.find(([re]) => re.test(name))?.[1];
}

function checkValue(spec: ParamSpec, value: unknown, name: string): ParamValue | { error: string } {
  const shown = displayValue(value);
  switch (spec.type) {
    case 'boolean':
      if (value === true || value === 1 || value === '1') return true;
      if (value === false || value === 0 || value === '0') return false;
      return { error: `type check ('boolean') failed - got '${shown}'` };
    case 'integer': {
      const n = toNumber(value, /^[+-]?\d+$/);
      if (n === undefined || !Number.isSafeInteger(n))
        return { error: `type check ('integer') failed - got '${shown}'` };
      return checkRange(spec, n, shown, name);
    }
    case 'number': {
      const n = toNumber(value, /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/);
      if (n === undefined) return { error: `type check ('number') failed - got '${shown}'` };
      return checkRange(spec, n, shown, name);
    }
    case 'string':
      return checkString(spec, value, shown, name);
  }
}

function toNumber(value: unknown, shape: RegExp): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && shape.test(value.trim())) return Number(value);
  return undefined;
}

function checkRange(spec: ParamSpec, n: number, shown: string, name: string): ParamValue | { error: string } {
  if (spec.minimum !== undefined && n < spec.minimum)
    return { error: `value must have a minimum value of ${spec.minimum}` };
  if (spec.maximum !== undefined && n > spec.maximum)
    return { error: `value must have a maximum value of ${spec.maximum}` };
  if (spec.format) {
    const bad = spec.format(shown, name);
    if (bad !== undefined) return { error: `invalid format - ${bad}` };
  }
  return n;
}

function checkString(
  spec: ParamSpec,
  value: unknown,
  shown: string,
  name: string,
): ParamValue | { error: string } {
  if (typeof value === 'object' || value === undefined)
    return { error: `type check ('string') failed - got '${shown}'` };
  const s = displayValue(value);
  if (spec.enum && !spec.enum.includes(s)) {
    return { error: `value '${s}' does not have a value in the enumeration '${spec.enum.join(', ')}'` };
  }
  if (spec.maxLength !== undefined && s.length > spec.maxLength) {
    return { error: `value may only be ${spec.maxLength} characters long` };
  }
  if (spec.pattern && !spec.pattern.test(s)) return { error: 'value does not match the regex pattern' };
  if (spec.format) {
    const bad = spec.format(s, name);
    if (bad !== undefined) return { error: `invalid format - ${bad}` };
  }
  return s;
}

/** A raw parameter value as PVE shows it in messages: scalars as text, anything else as JSON. */
export function displayValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
      return `${value}`;
    case 'undefined':
      return '';
    case 'symbol':
    case 'function':
      return typeof value;
    default:
      return JSON.stringify(value);
  }
}
