import { cloneJson, isJsonObject } from './json-value.js';
import type { JSONSchemaProps } from './json-schema-props.js';
import { MAX_SCHEMA_DEPTH } from './schema-depth.js';

/**
 * Removes `null` from fields that are neither nullable nor defaulted, in place. The apiserver does this
 * after pruning so that an explicit null behaves like an absent field (and is then reported as missing
 * when required).
 */
export function dropNonNullableNulls(value: unknown, schema: JSONSchemaProps, depth = 0): void {
  if (depth > MAX_SCHEMA_DEPTH) return;
  if (Array.isArray(value)) {
    const items = schema.items;
    if (items) for (const item of value) dropNonNullableNulls(item, items, depth + 1);
    return;
  }
  if (!isJsonObject(value)) return;
  for (const [key, child] of Object.entries(value)) {
    const property = fieldSchema(schema, key);
    if (!property) continue;
    if (child === null && property.nullable !== true && property.default === undefined) {
      // The key is known to exist and the object is our own copy.
      // eslint-disable-next-line @typescript-eslint/no-dynamic-delete
      delete value[key];
    } else {
      dropNonNullableNulls(child, property, depth + 1);
    }
  }
}

/**
 * Fills absent fields (and nulls in non-nullable fields) from `default`, in place, then descends, so
 * defaults inside a freshly defaulted object apply too. Defaults are copied, never shared.
 */
export function applyDefaults(value: unknown, schema: JSONSchemaProps, depth = 0): void {
  if (depth > MAX_SCHEMA_DEPTH) return;
  if (Array.isArray(value)) {
    const items = schema.items;
    if (items) for (const item of value) applyDefaults(item, items, depth + 1);
    return;
  }
  if (!isJsonObject(value)) return;
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (property.default === undefined) continue;
    const current = value[key];
    if (current === undefined || (current === null && property.nullable !== true)) {
      value[key] = cloneJson(property.default);
    }
  }
  for (const [key, child] of Object.entries(value)) {
    const property = fieldSchema(schema, key);
    if (property) applyDefaults(child, property, depth + 1);
  }
}

function fieldSchema(schema: JSONSchemaProps, key: string): JSONSchemaProps | undefined {
  const property = schema.properties?.[key];
  if (property) return property;
  return typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
}
