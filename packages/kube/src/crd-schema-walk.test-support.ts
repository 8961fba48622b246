import type { JSONSchemaProps } from './crd-manifests.js';

/** Every property path a schema declares: `spec.network.mac`, array items as `spec.rules[]`. */
export function schemaPaths(schema: JSONSchemaProps, prefix = ''): string[] {
  const paths: string[] = [];
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    paths.push(path, ...schemaPaths(child, path));
    if (child.items !== undefined) paths.push(`${path}[]`, ...schemaPaths(child.items, `${path}[]`));
  }
  return paths;
}

/** Every path present in a value, spelled like `schemaPaths`. */
export function valuePaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) {
    const path = `${prefix}[]`;
    return [path, ...value.flatMap((item: unknown) => valuePaths(item, path))];
  }
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([name, child]: [string, unknown]) => {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    return [path, ...valuePaths(child, path)];
  });
}

/**
 * A small structural-schema validator for the keywords our CRDs use (type, properties with pruning of
 * unknown fields reported as errors, required, enum, pattern, format date-time/uuid, bounds). Returns one
 * message per problem.
 */
export function validate(schema: JSONSchemaProps, value: unknown, path = ''): string[] {
  const at = path === '' ? '<root>' : path;
  const typeError = checkType(schema, value);
  if (typeError !== undefined) return [`${at}: ${typeError}`];
  const errors: string[] = [];
  if (schema.enum !== undefined && !schema.enum.includes(value))
    errors.push(`${at}: not one of ${schema.enum.join(', ')}`);
  if (typeof value === 'string') errors.push(...checkString(schema, value).map((e) => `${at}: ${e}`));
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${at}: below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${at}: above ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (schema.maxItems !== undefined && value.length > schema.maxItems) errors.push(`${at}: too many items`);
    value.forEach((item: unknown, i) => {
      if (schema.items !== undefined) errors.push(...validate(schema.items, item, `${path}[${i}]`));
    });
  } else if (typeof value === 'object' && value !== null && schema.properties !== undefined) {
    const record = value as Record<string, unknown>;
    for (const name of schema.required ?? []) {
      if (record[name] === undefined) errors.push(`${at}: ${name} is required`);
    }
    for (const [name, child] of Object.entries(record)) {
      const childPath = path === '' ? name : `${path}.${name}`;
      const childSchema = schema.properties[name];
      if (childSchema === undefined) errors.push(`${childPath}: unknown field`);
      else errors.push(...validate(childSchema, child, childPath));
    }
  }
  return errors;
}

function checkType(schema: JSONSchemaProps, value: unknown): string | undefined {
  switch (schema.type) {
    case undefined:
      return undefined;
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? undefined
        : 'not an object';
    case 'array':
      return Array.isArray(value) ? undefined : 'not an array';
    case 'integer':
      return Number.isInteger(value) ? undefined : 'not an integer';
    case 'number':
      return typeof value === 'number' ? undefined : 'not a number';
    default:
      return typeof value === schema.type ? undefined : `not a ${schema.type}`;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function checkString(schema: JSONSchemaProps, value: string): string[] {
  const errors: string[] = [];
  if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value))
    errors.push(`does not match ${schema.pattern}`);
  if (schema.minLength !== undefined && value.length < schema.minLength) errors.push('too short');
  if (schema.maxLength !== undefined && value.length > schema.maxLength) errors.push('too long');
  if (schema.format === 'uuid' && !UUID.test(value)) errors.push('not a uuid');
  if (schema.format === 'date-time' && !(DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)))) {
    errors.push('not an RFC 3339 date-time');
  }
  return errors;
}

/** Every `default` in the schema, with its path, so tests can check each is valid where it sits. */
export function schemaDefaults(
  schema: JSONSchemaProps,
  path = '',
): { path: string; schema: JSONSchemaProps }[] {
  const found: { path: string; schema: JSONSchemaProps }[] =
    schema.default === undefined ? [] : [{ path, schema }];
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    found.push(...schemaDefaults(child, path === '' ? name : `${path}.${name}`));
  }
  if (schema.items !== undefined) found.push(...schemaDefaults(schema.items, `${path}[]`));
  return found;
}
