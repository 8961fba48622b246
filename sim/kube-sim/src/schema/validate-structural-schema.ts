import { isJsonObject, jsonEqual, type JsonObject } from './json-value.js';
import type { JSONSchemaProps } from './json-schema-props.js';
import { pruneUnknownFields } from './prune-unknown-fields.js';
import { MAX_SCHEMA_DEPTH } from './schema-depth.js';
import {
  forbiddenCause,
  invalidCause,
  notSupportedCause,
  requiredCause,
  type StatusCause,
} from './status-cause.js';
import { validateValue } from './validate-value.js';

type Level = 'root' | 'field' | 'item';

const SCHEMA_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const UNSUPPORTED_KEYWORDS = [
  '$ref',
  '$schema',
  'id',
  'definitions',
  'dependencies',
  'patternProperties',
  'additionalItems',
];
const MISSING_TYPE_DETAIL: Record<Level, string> = {
  root: 'must not be empty at the root',
  field: 'must not be empty for specified object fields',
  item: 'must not be empty for specified array items',
};
/** Keywords a value validation (inside anyOf/allOf/oneOf/not) may not carry, with kube's wording. */
const FORBIDDEN_IN_VALUE_VALIDATION: [keyof JSONSchemaProps, string][] = [
  ['type', 'must be empty to be structural'],
  ['additionalProperties', 'must be undefined to be structural'],
  ['default', 'must be undefined to be structural'],
  ['title', 'must be empty to be structural'],
  ['description', 'must be empty to be structural'],
  ['nullable', 'must be false to be structural'],
  ['x-kubernetes-preserve-unknown-fields', 'must be false to be structural'],
  ['x-kubernetes-embedded-resource', 'must be false to be structural'],
  ['x-kubernetes-int-or-string', 'must be false to be structural'],
];

/**
 * Checks that a CRD version's openAPIV3Schema is structural and well-formed, reporting fields under
 * `path` (`spec.versions[0].schema.openAPIV3Schema`). Defaults are checked against their own schema
 * only once the schema itself is sound, since validating against a broken schema means nothing.
 */
export function validateStructuralSchema(schema: unknown, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  checkNode(schema, path, 'root', 0, causes);
  if (causes.length === 0) checkDefaults(schema as JSONSchemaProps, path, 0, causes);
  return causes;
}

function key(path: string, name: string): string {
  return `${path}.properties[${name}]`;
}

function checkNode(node: unknown, path: string, level: Level, depth: number, causes: StatusCause[]): void {
  if (depth > MAX_SCHEMA_DEPTH) {
    causes.push(forbiddenCause(path, `must not be nested more than ${MAX_SCHEMA_DEPTH} levels`));
    return;
  }
  if (!isJsonObject(node)) {
    causes.push(invalidCause(path, node, 'must be a JSON schema object'));
    return;
  }
  if (!checkShape(node, path, causes)) return;
  const schema = node as JSONSchemaProps;
  checkKeywords(node, path, causes);
  checkType(schema, path, level, causes);
  checkExtensions(schema, path, causes);
  if (level === 'root') checkRootFields(schema, path, causes);
  checkChildren(schema, path, depth, causes);
}

/** Shapes the JSON decoder of kube-apiserver would refuse before validation. */
const SHAPES: [keyof JSONSchemaProps, (v: unknown) => boolean, string][] = [
  ['type', (v) => typeof v === 'string', 'must be a string'],
  ['properties', isJsonObject, 'must be an object'],
  ['required', isStringArray, 'must be a list of strings'],
  ['enum', Array.isArray, 'must be a list'],
  ['pattern', (v) => typeof v === 'string', 'must be a string'],
  ['additionalProperties', (v) => typeof v === 'boolean' || isJsonObject(v), 'must be a boolean or a schema'],
  ['x-kubernetes-list-map-keys', isStringArray, 'must be a list of strings'],
  ['anyOf', Array.isArray, 'must be a list'],
  ['allOf', Array.isArray, 'must be a list'],
  ['oneOf', Array.isArray, 'must be a list'],
  ...(['minimum', 'maximum', 'multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems'] as const).map(
    (name): [keyof JSONSchemaProps, (v: unknown) => boolean, string] => [
      name,
      (v) => typeof v === 'number',
      'must be a number',
    ],
  ),
  ...(['minProperties', 'maxProperties'] as const).map(
    (name): [keyof JSONSchemaProps, (v: unknown) => boolean, string] => [
      name,
      (v) => typeof v === 'number',
      'must be a number',
    ],
  ),
];

function isStringArray(value: unknown): boolean {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

function checkShape(node: JsonObject, path: string, causes: StatusCause[]): boolean {
  const before = causes.length;
  for (const [name, ok, detail] of SHAPES) {
    if (node[name] !== undefined && !ok(node[name]))
      causes.push(invalidCause(`${path}.${name}`, node[name], detail));
  }
  return causes.length === before;
}

function checkKeywords(node: JsonObject, path: string, causes: StatusCause[]): void {
  for (const keyword of UNSUPPORTED_KEYWORDS) {
    if (node[keyword] !== undefined)
      causes.push(forbiddenCause(`${path}.${keyword}`, `${keyword} is not supported`));
  }
  if (node.uniqueItems === true) {
    causes.push(
      forbiddenCause(
        `${path}.uniqueItems`,
        'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ),
    );
  }
  if (typeof node.pattern === 'string') {
    try {
      new RegExp(node.pattern, 'u');
    } catch (e: unknown) {
      const reason = e instanceof Error ? e.message : String(e);
      causes.push(
        invalidCause(
          `${path}.pattern`,
          node.pattern,
          `must be a valid regular expression, but isn't: ${reason}`,
        ),
      );
    }
  }
}

function checkType(schema: JSONSchemaProps, path: string, level: Level, causes: StatusCause[]): void {
  const type = schema.type;
  const intOrString = schema['x-kubernetes-int-or-string'] === true;
  const embedded = schema['x-kubernetes-embedded-resource'] === true;
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  if (type !== undefined && !SCHEMA_TYPES.includes(type)) {
    causes.push(notSupportedCause(`${path}.type`, type, SCHEMA_TYPES));
  }
  if (embedded && type !== 'object') {
    const detail = 'must be object if x-kubernetes-embedded-resource is true';
    causes.push(type ? invalidCause(`${path}.type`, type, detail) : requiredCause(`${path}.type`, detail));
  } else if (!type && !intOrString && !preserve) {
    causes.push(requiredCause(`${path}.type`, MISSING_TYPE_DETAIL[level]));
  }
  if (intOrString && type) {
    causes.push(invalidCause(`${path}.type`, type, 'must be empty if x-kubernetes-int-or-string is true'));
  }
  if (level === 'root' && type && type !== 'object') {
    causes.push(invalidCause(`${path}.type`, type, 'must be object at the root'));
  }
  if (type === 'array' && schema.items === undefined) {
    causes.push(requiredCause(`${path}.items`, 'must be specified'));
  }
  if (
    schema.properties &&
    schema.additionalProperties !== undefined &&
    schema.additionalProperties !== false
  ) {
    causes.push(
      forbiddenCause(
        `${path}.additionalProperties`,
        'additionalProperties and properties are mutual exclusive',
      ),
    );
  }
  if (embedded && !preserve && Object.keys(schema.properties ?? {}).length === 0) {
    causes.push(
      requiredCause(
        `${path}.properties`,
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    );
  }
}

function checkExtensions(schema: JSONSchemaProps, path: string, causes: StatusCause[]): void {
  if (schema['x-kubernetes-preserve-unknown-fields'] === false) {
    causes.push(
      invalidCause(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'),
    );
  }
  const listType = schema['x-kubernetes-list-type'];
  if (listType !== undefined) {
    if (!['atomic', 'set', 'map'].includes(listType)) {
      causes.push(notSupportedCause(`${path}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
    } else if (schema.type !== 'array') {
      causes.push(
        invalidCause(`${path}.x-kubernetes-list-type`, listType, 'must only be used on type array'),
      );
    }
    if (listType === 'map' && (schema['x-kubernetes-list-map-keys'] ?? []).length === 0) {
      causes.push(
        requiredCause(
          `${path}.x-kubernetes-list-map-keys`,
          'must not be empty if x-kubernetes-list-type is map',
        ),
      );
    }
  }
  const mapType = schema['x-kubernetes-map-type'];
  if (mapType !== undefined && !['granular', 'atomic'].includes(mapType)) {
    causes.push(notSupportedCause(`${path}.x-kubernetes-map-type`, mapType, ['granular', 'atomic']));
  }
}

/** The root may type apiVersion and kind only as strings, and metadata only by name and generateName. */
function checkRootFields(schema: JSONSchemaProps, path: string, causes: StatusCause[]): void {
  for (const name of ['apiVersion', 'kind']) {
    const field = schema.properties?.[name];
    if (field?.type !== undefined && field.type !== 'string') {
      causes.push(invalidCause(`${key(path, name)}.type`, field.type, 'must be string'));
    }
  }
  const metadata = schema.properties?.metadata;
  if (!metadata) return;
  const metadataPath = key(path, 'metadata');
  if (metadata.type !== undefined && metadata.type !== 'object') {
    causes.push(invalidCause(`${metadataPath}.type`, metadata.type, 'must be object'));
  }
  const extra = Object.keys(metadata).filter((k) => !['type', 'properties', 'description'].includes(k));
  const extraProperties = Object.keys(metadata.properties ?? {}).filter(
    (k) => k !== 'name' && k !== 'generateName',
  );
  if (extra.length > 0 || extraProperties.length > 0) {
    causes.push(
      forbiddenCause(
        metadataPath,
        'must not specify anything other than name and generateName, but metadata is implicitly specified',
      ),
    );
  }
  for (const name of ['name', 'generateName']) {
    const field = metadata.properties?.[name];
    if (field?.type !== undefined && field.type !== 'string') {
      causes.push(invalidCause(`${key(metadataPath, name)}.type`, field.type, 'must be string'));
    }
  }
}

function checkChildren(schema: JSONSchemaProps, path: string, depth: number, causes: StatusCause[]): void {
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    checkNode(child, key(path, name), 'field', depth + 1, causes);
  }
  if (isJsonObject(schema.additionalProperties)) {
    checkNode(schema.additionalProperties, `${path}.additionalProperties`, 'field', depth + 1, causes);
  }
  if (schema.items !== undefined) {
    if (Array.isArray(schema.items)) {
      causes.push(forbiddenCause(`${path}.items`, 'items must be a schema object and not an array'));
    } else {
      checkNode(schema.items, `${path}.items`, 'item', depth + 1, causes);
    }
  }
  const intOrString = schema['x-kubernetes-int-or-string'] === true;
  for (const junctor of ['allOf', 'anyOf', 'oneOf'] as const) {
    (schema[junctor] ?? []).forEach((branch, i) => {
      checkValueValidation(branch, `${path}.${junctor}[${i}]`, intOrString, depth + 1, causes);
    });
  }
  if (schema.not !== undefined) checkValueValidation(schema.not, `${path}.not`, false, depth + 1, causes);
}

/**
 * A branch of anyOf/allOf/oneOf/not may only add value validations. The one exception is the
 * int-or-string idiom `anyOf: [{type: integer}, {type: string}]`.
 */
function checkValueValidation(
  node: unknown,
  path: string,
  intOrString: boolean,
  depth: number,
  causes: StatusCause[],
): void {
  if (depth > MAX_SCHEMA_DEPTH) return;
  if (!isJsonObject(node)) {
    causes.push(invalidCause(path, node, 'must be a JSON schema object'));
    return;
  }
  if (!checkShape(node, path, causes)) return;
  const schema = node as JSONSchemaProps;
  const intOrStringIdiom = intOrString && (schema.type === 'integer' || schema.type === 'string');
  for (const [name, detail] of FORBIDDEN_IN_VALUE_VALIDATION) {
    const present = name === 'type' ? !intOrStringIdiom && schema.type !== undefined : isSet(schema[name]);
    if (present) causes.push(forbiddenCause(`${path}.${name}`, detail));
  }
  checkKeywords(node, path, causes);
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    checkValueValidation(child, key(path, name), false, depth + 1, causes);
  }
  if (schema.items !== undefined)
    checkValueValidation(schema.items, `${path}.items`, false, depth + 1, causes);
  for (const junctor of ['allOf', 'anyOf', 'oneOf'] as const) {
    (schema[junctor] ?? []).forEach((branch, i) => {
      checkValueValidation(branch, `${path}.${junctor}[${i}]`, intOrString, depth + 1, causes);
    });
  }
  if (schema.not !== undefined) checkValueValidation(schema.not, `${path}.not`, false, depth + 1, causes);
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== false && value !== '';
}

/** Each default must already be pruned and must satisfy the schema it sits in. */
function checkDefaults(schema: JSONSchemaProps, path: string, depth: number, causes: StatusCause[]): void {
  if (depth > MAX_SCHEMA_DEPTH) return;
  if (schema.default !== undefined) {
    const defaultPath = `${path}.default`;
    const pruned = pruneUnknownFields(schema.default, schema, false);
    if (!jsonEqual(pruned, schema.default)) {
      causes.push(invalidCause(defaultPath, schema.default, 'must not have unknown fields'));
    } else {
      causes.push(...validateValue(schema.default, schema, defaultPath));
    }
  }
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    checkDefaults(child, key(path, name), depth + 1, causes);
  }
  if (isJsonObject(schema.additionalProperties)) {
    checkDefaults(schema.additionalProperties, `${path}.additionalProperties`, depth + 1, causes);
  }
  if (schema.items) checkDefaults(schema.items, `${path}.items`, depth + 1, causes);
}
