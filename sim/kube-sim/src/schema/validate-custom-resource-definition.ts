import { isJsonObject, jsonTypeOf, type JsonObject } from './json-value.js';
import {
  invalidCause,
  notSupportedCause,
  requiredCause,
  typeInvalidCause,
  type StatusCause,
} from './status-cause.js';
import { validateStructuralSchema } from './validate-structural-schema.js';

const SCOPES = ['Cluster', 'Namespaced'];
const PRINTER_COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_DETAIL =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic " +
  "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for " +
  "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

/**
 * Validates an apiextensions.k8s.io/v1 CustomResourceDefinition as kube-apiserver does on create and
 * update: the required spec fields, the versions (exactly one storage version, unique DNS-1035 names,
 * a structural schema each, printer columns) and that metadata.name is `<plural>.<group>`.
 */
export function validateCustomResourceDefinition(crd: unknown): StatusCause[] {
  if (!isJsonObject(crd)) {
    const actual = jsonTypeOf(crd);
    return [typeInvalidCause('', actual, `body must be of type object: ${JSON.stringify(actual)}`)];
  }
  const spec = isJsonObject(crd.spec) ? crd.spec : {};
  const names = isJsonObject(spec.names) ? spec.names : {};
  const group = stringOr(spec.group);
  const plural = stringOr(names.plural);
  const causes: StatusCause[] = [];
  if (group === '') causes.push(requiredCause('spec.group'));
  else if (!group.includes('.')) {
    causes.push(invalidCause('spec.group', group, 'should be a domain with at least one dot'));
  }
  if (plural === '') causes.push(requiredCause('spec.names.plural'));
  if (stringOr(names.kind) === '') causes.push(requiredCause('spec.names.kind'));
  const scope = stringOr(spec.scope);
  if (scope === '') causes.push(requiredCause('spec.scope'));
  else if (!SCOPES.includes(scope)) causes.push(notSupportedCause('spec.scope', scope, SCOPES));
  causes.push(...validateVersions(spec.versions));
  const name = isJsonObject(crd.metadata) ? stringOr(crd.metadata.name) : '';
  if (name !== `${plural}.${group}`) {
    causes.push(invalidCause('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  }
  return causes;
}

function stringOr(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function validateVersions(versions: unknown): StatusCause[] {
  const list = Array.isArray(versions) ? versions : [];
  const causes: StatusCause[] = [];
  const seen = new Set<string>();
  let storageCount = 0;
  list.forEach((raw: unknown, i) => {
    const version: JsonObject = isJsonObject(raw) ? raw : {};
    const path = `spec.versions[${i}]`;
    const name = stringOr(version.name);
    if (!DNS1035_LABEL.test(name)) causes.push(invalidCause(`${path}.name`, name, DNS1035_DETAIL));
    if (seen.has(name)) {
      causes.push(invalidCause('spec.versions', versions, 'must contain unique version names'));
    }
    seen.add(name);
    if (version.storage === true) storageCount += 1;
    const schema = isJsonObject(version.schema) ? version.schema.openAPIV3Schema : undefined;
    const schemaPath = `${path}.schema.openAPIV3Schema`;
    if (schema === undefined) causes.push(requiredCause(schemaPath, 'schemas are required'));
    else causes.push(...validateStructuralSchema(schema, schemaPath));
    causes.push(
      ...validatePrinterColumns(version.additionalPrinterColumns, `${path}.additionalPrinterColumns`),
    );
  });
  if (storageCount !== 1) {
    causes.push(
      invalidCause(
        'spec.versions',
        versions ?? null,
        'must have exactly one version marked as storage version',
      ),
    );
  }
  return causes;
}

function validatePrinterColumns(columns: unknown, path: string): StatusCause[] {
  if (!Array.isArray(columns)) return [];
  return columns.flatMap((raw: unknown, i) => {
    const column: JsonObject = isJsonObject(raw) ? raw : {};
    const columnPath = `${path}[${i}]`;
    const causes: StatusCause[] = [];
    if (stringOr(column.name) === '') causes.push(requiredCause(`${columnPath}.name`));
    const type = stringOr(column.type);
    if (type === '') causes.push(requiredCause(`${columnPath}.type`));
    else if (!PRINTER_COLUMN_TYPES.includes(type)) {
      causes.push(notSupportedCause(`${columnPath}.type`, type, PRINTER_COLUMN_TYPES));
    }
    if (stringOr(column.jsonPath) === '') causes.push(requiredCause(`${columnPath}.jsonPath`));
    return causes;
  });
}
