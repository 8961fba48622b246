import { isJsonObject, jsonEqual, jsonTypeOf, type JsonObject } from './json-value.js';
import type { JSONSchemaProps } from './json-schema-props.js';
import { MAX_SCHEMA_DEPTH } from './schema-depth.js';
import {
  duplicateCause,
  invalidCause,
  notSupportedCause,
  requiredCause,
  tooLongCause,
  tooManyCause,
  typeInvalidCause,
  type StatusCause,
} from './status-cause.js';
import { matchesStringFormat } from './string-format.js';

/**
 * Validates an already pruned and defaulted value against a structural schema the way kube-apiserver's
 * OpenAPI validator does, collecting every error rather than stopping at the first. `path` is the
 * field path of `value` (`spec.cpu`), empty for the root.
 */
export function validateValue(value: unknown, schema: JSONSchemaProps, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  validateNode(value, schema, path, 0, causes);
  return causes;
}

function childPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** The subject of kube-openapi's messages: `spec.vmid in body`. */
function subject(path: string): string {
  return path === '' ? 'body' : `${path} in body`;
}

function validateNode(
  value: unknown,
  schema: JSONSchemaProps,
  path: string,
  depth: number,
  causes: StatusCause[],
): void {
  if (value === undefined || depth > MAX_SCHEMA_DEPTH) return;
  const typeOk = checkType(value, schema, path, causes);
  if (value === null) return;
  checkEnum(value, schema, path, causes);
  if (!typeOk) return;
  checkJunctors(value, schema, path, depth, causes);
  if (typeof value === 'string') checkString(value, schema, path, causes);
  else if (typeof value === 'number') checkNumber(value, schema, path, causes);
  else if (Array.isArray(value)) checkArray(value, schema, path, depth, causes);
  else if (isJsonObject(value)) checkObject(value, schema, path, depth, causes);
}

function expectedTypes(schema: JSONSchemaProps): string[] {
  if (schema['x-kubernetes-int-or-string'] === true) return ['integer', 'string'];
  return schema.type ? [schema.type] : [];
}

function checkType(value: unknown, schema: JSONSchemaProps, path: string, causes: StatusCause[]): boolean {
  const expected = expectedTypes(schema);
  if (expected.length === 0) return true;
  const actual = jsonTypeOf(value);
  if (actual === 'null' && schema.nullable === true) return true;
  const ok = expected.includes(actual) || (actual === 'integer' && expected.includes('number'));
  if (!ok) {
    causes.push(
      typeInvalidCause(
        path,
        actual,
        `${subject(path)} must be of type ${expected.join(',')}: ${JSON.stringify(actual)}`,
      ),
    );
  }
  return ok;
}

function checkEnum(value: unknown, schema: JSONSchemaProps, path: string, causes: StatusCause[]): void {
  const allowed = schema.enum;
  if (!allowed || allowed.some((candidate) => jsonEqual(candidate, value))) return;
  const supported = allowed.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  causes.push(notSupportedCause(path, value, supported));
}

function checkString(value: string, schema: JSONSchemaProps, path: string, causes: StatusCause[]): void {
  // kube-openapi counts code points (Go runes), not UTF-16 units nor grapheme clusters.
  const length = Array.from(value).length;
  if (schema.maxLength !== undefined && length > schema.maxLength) {
    causes.push(tooLongCause(path, schema.maxLength));
  }
  if (schema.minLength !== undefined && length < schema.minLength) {
    causes.push(
      invalidCause(path, value, `${subject(path)} should be at least ${schema.minLength} chars long`),
    );
  }
  if (schema.pattern !== undefined && !matchesPattern(schema.pattern, value)) {
    causes.push(invalidCause(path, value, `${subject(path)} should match '${schema.pattern}'`));
  }
  if (schema.format !== undefined && !matchesStringFormat(schema.format, value)) {
    causes.push(
      typeInvalidCause(
        path,
        value,
        `${subject(path)} must be of type ${schema.format}: ${JSON.stringify(value)}`,
      ),
    );
  }
}

/** An unparsable pattern is refused when the CRD is created; here it simply does not constrain. */
function matchesPattern(pattern: string, value: string): boolean {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'u');
  } catch (e: unknown) {
    if (e instanceof SyntaxError) return true;
    throw e;
  }
  return regex.test(value);
}

function checkNumber(value: number, schema: JSONSchemaProps, path: string, causes: StatusCause[]): void {
  const { multipleOf, maximum, minimum } = schema;
  if (multipleOf !== undefined && multipleOf > 0 && !Number.isInteger(value / multipleOf)) {
    causes.push(invalidCause(path, value, `${subject(path)} should be a multiple of ${multipleOf}`));
  }
  if (maximum !== undefined) {
    if (schema.exclusiveMaximum === true && value >= maximum) {
      causes.push(invalidCause(path, value, `${subject(path)} should be less than ${maximum}`));
    } else if (value > maximum) {
      causes.push(invalidCause(path, value, `${subject(path)} should be less than or equal to ${maximum}`));
    }
  }
  if (minimum !== undefined) {
    if (schema.exclusiveMinimum === true && value <= minimum) {
      causes.push(invalidCause(path, value, `${subject(path)} should be greater than ${minimum}`));
    } else if (value < minimum) {
      causes.push(
        invalidCause(path, value, `${subject(path)} should be greater than or equal to ${minimum}`),
      );
    }
  }
}

function checkArray(
  value: unknown[],
  schema: JSONSchemaProps,
  path: string,
  depth: number,
  causes: StatusCause[],
): void {
  const items = schema.items;
  if (items) {
    value.forEach((item, i) => {
      validateNode(item, items, `${path}[${i}]`, depth + 1, causes);
    });
  }
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    causes.push(
      invalidCause(path, value.length, `${subject(path)} should have at least ${schema.minItems} items`),
    );
  }
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    causes.push(tooManyCause(path, value.length, schema.maxItems));
  }
  if (schema.uniqueItems === true && hasDuplicates(value)) {
    causes.push(invalidCause(path, value, `${subject(path)} shouldn't contain duplicates`));
  }
  checkListType(value, schema, path, causes);
}

function hasDuplicates(value: unknown[]): boolean {
  return value.some((item, i) => value.slice(i + 1).some((other) => jsonEqual(item, other)));
}

/** `x-kubernetes-list-type` set and map forbid repeated elements and repeated keys respectively. */
function checkListType(value: unknown[], schema: JSONSchemaProps, path: string, causes: StatusCause[]): void {
  const listType = schema['x-kubernetes-list-type'];
  if (listType !== 'set' && listType !== 'map') return;
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  const seen: unknown[] = [];
  value.forEach((item, i) => {
    const identity = listType === 'set' ? item : mapKeyOf(item, keys);
    if (identity === undefined) return;
    if (seen.some((s) => jsonEqual(s, identity))) causes.push(duplicateCause(`${path}[${i}]`, identity));
    else seen.push(identity);
  });
}

function mapKeyOf(item: unknown, keys: string[]): JsonObject | undefined {
  if (!isJsonObject(item)) return undefined;
  const identity: JsonObject = {};
  for (const key of keys) if (item[key] !== undefined) identity[key] = item[key];
  return identity;
}

function checkObject(
  value: JsonObject,
  schema: JSONSchemaProps,
  path: string,
  depth: number,
  causes: StatusCause[],
): void {
  const count = Object.keys(value).length;
  if (schema.maxProperties !== undefined && count > schema.maxProperties) {
    causes.push(tooManyCause(path, count, schema.maxProperties));
  }
  if (schema.minProperties !== undefined && count < schema.minProperties) {
    causes.push(
      invalidCause(path, count, `${subject(path)} should have at least ${schema.minProperties} properties`),
    );
  }
  for (const key of schema.required ?? []) {
    if (value[key] === undefined) causes.push(requiredCause(childPath(path, key)));
  }
  if (schema['x-kubernetes-embedded-resource'] === true) {
    for (const key of ['apiVersion', 'kind']) {
      if (typeof value[key] !== 'string' || value[key] === '') {
        causes.push(requiredCause(childPath(path, key), 'must not be empty'));
      }
    }
  }
  const additional =
    typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (const [key, child] of Object.entries(value)) {
    const property = schema.properties?.[key] ?? additional;
    if (property) validateNode(child, property, childPath(path, key), depth + 1, causes);
  }
}

function branchCauses(value: unknown, schema: JSONSchemaProps, path: string, depth: number): StatusCause[] {
  const causes: StatusCause[] = [];
  validateNode(value, schema, path, depth + 1, causes);
  return causes;
}

/** The fewest errors of the failed branches: the branch the user most likely meant. */
function closest(results: StatusCause[][]): StatusCause[] {
  return (
    results.reduce<StatusCause[] | undefined>(
      (best, r) => (best === undefined || r.length < best.length ? r : best),
      undefined,
    ) ?? []
  );
}

function checkJunctors(
  value: unknown,
  schema: JSONSchemaProps,
  path: string,
  depth: number,
  causes: StatusCause[],
): void {
  const name = JSON.stringify(path);
  for (const branch of schema.allOf ?? []) causes.push(...branchCauses(value, branch, path, depth));
  if (schema.anyOf && schema.anyOf.length > 0) {
    const results = schema.anyOf.map((branch) => branchCauses(value, branch, path, depth));
    if (!results.some((r) => r.length === 0)) {
      causes.push(invalidCause(path, '', `${name} must validate at least one schema (anyOf)`));
      causes.push(...closest(results));
    }
  }
  if (schema.oneOf && schema.oneOf.length > 0) {
    const results = schema.oneOf.map((branch) => branchCauses(value, branch, path, depth));
    const passing = results.filter((r) => r.length === 0).length;
    if (passing !== 1) {
      causes.push(invalidCause(path, '', `${name} must validate one and only one schema (oneOf)`));
      if (passing === 0) causes.push(...closest(results));
    }
  }
  if (schema.not && branchCauses(value, schema.not, path, depth).length === 0) {
    causes.push(invalidCause(path, '', `${name} must not validate the schema (not)`));
  }
}
