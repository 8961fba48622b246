import { applyDefaults, dropNonNullableNulls } from './apply-defaults.js';
import { isJsonObject, jsonTypeOf, type JsonObject } from './json-value.js';
import type { JSONSchemaProps } from './json-schema-props.js';
import { pruneUnknownFields } from './prune-unknown-fields.js';
import { typeInvalidCause, type StatusCause } from './status-cause.js';
import { validateValue } from './validate-value.js';

/** Root fields whose validation belongs to the apiserver's object-meta checks, not to the schema. */
const ROOT_META_FIELDS = ['apiVersion', 'kind', 'metadata'];

/**
 * Prunes unknown fields (unless preserved), drops nulls from non-nullable fields, applies defaults,
 * then validates, in kube-apiserver's order. Never mutates its input. Of the root `metadata` schema
 * only `name` and `generateName` constrain the object, as in kube-apiserver.
 */
export function validateCustomResource(
  schema: JSONSchemaProps,
  object: unknown,
): { object: Record<string, unknown>; causes: StatusCause[] } {
  if (!isJsonObject(object)) {
    const actual = jsonTypeOf(object);
    return {
      object: {},
      causes: [typeInvalidCause('', actual, `body must be of type object: ${JSON.stringify(actual)}`)],
    };
  }
  const pruned = pruneUnknownFields(object, schema) as JsonObject;
  dropNonNullableNulls(pruned, withoutRootMeta(schema));
  applyDefaults(pruned, withoutRootMeta(schema));
  const causes = [
    ...validateMetadataNames(schema, pruned.metadata),
    ...validateValue(pruned, withoutRootMeta(schema), ''),
  ];
  return { object: pruned, causes };
}

function withoutRootMeta(schema: JSONSchemaProps): JSONSchemaProps {
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).filter(([key]) => !ROOT_META_FIELDS.includes(key)),
  );
  const required = schema.required?.filter((key) => !ROOT_META_FIELDS.includes(key));
  return { ...schema, properties, ...(required ? { required } : {}) };
}

function validateMetadataNames(schema: JSONSchemaProps, metadata: unknown): StatusCause[] {
  const metadataSchema = schema.properties?.metadata?.properties;
  if (!metadataSchema || !isJsonObject(metadata)) return [];
  return ['name', 'generateName'].flatMap((key) => {
    const fieldSchema = metadataSchema[key];
    const value = metadata[key];
    return fieldSchema && value !== undefined ? validateValue(value, fieldSchema, `metadata.${key}`) : [];
  });
}
