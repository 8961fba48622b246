import { cloneJson, isJsonObject, type JsonObject } from './json-value.js';
import type { JSONSchemaProps } from './json-schema-props.js';
import { MAX_SCHEMA_DEPTH } from './schema-depth.js';

/** Fields every Kubernetes object carries whether or not its schema mentions them. */
const TYPE_AND_OBJECT_META = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Returns a copy of `value` without the fields its structural schema does not specify, as the
 * apiserver does when it decodes a custom resource. The object root and embedded resources keep
 * apiVersion, kind and metadata; `x-kubernetes-preserve-unknown-fields` keeps unknown fields while
 * still pruning inside the known ones.
 */
export function pruneUnknownFields(value: unknown, schema: JSONSchemaProps, isRoot = true): unknown {
  return prune(value, schema, isRoot, 0);
}

function prune(
  value: unknown,
  schema: JSONSchemaProps | undefined,
  keepMeta: boolean,
  depth: number,
): unknown {
  if (schema === undefined || depth > MAX_SCHEMA_DEPTH) return cloneJson(value);
  if (Array.isArray(value)) {
    return value.map((item: unknown) => prune(item, schema.items, false, depth + 1));
  }
  if (!isJsonObject(value)) return value;
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const additional = schema.additionalProperties;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    const property = schema.properties?.[key];
    const embedded = property?.['x-kubernetes-embedded-resource'] === true;
    if (keepMeta && TYPE_AND_OBJECT_META.has(key)) {
      out[key] = cloneJson(child);
    } else if (property) {
      out[key] = prune(child, property, embedded, depth + 1);
    } else if (typeof additional === 'object') {
      out[key] = prune(child, additional, additional['x-kubernetes-embedded-resource'] === true, depth + 1);
    } else if (preserve || additional === true) {
      out[key] = cloneJson(child);
    }
  }
  return out;
}
