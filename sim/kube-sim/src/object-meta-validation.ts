import type { ObjectMeta } from './kube-object.js';
import { isRecord } from './json-value.js';
import { fieldError, type StatusCause } from './status-error.js';

/** How a resource's names are checked: most are DNS subdomains, namespaces DNS labels, RBAC objects path segments. */
export type NameRule = 'subdomain' | 'label' | 'path-segment';

const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

const SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MESSAGE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART_MESSAGE =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MESSAGE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

function validateName(name: string, rule: NameRule, field = 'metadata.name'): StatusCause[] {
  switch (rule) {
    case 'subdomain':
      if (name.length > 253) return [fieldError.invalid(field, name, 'must be no more than 253 characters')];
      return SUBDOMAIN.test(name) ? [] : [fieldError.invalid(field, name, SUBDOMAIN_MESSAGE)];
    case 'label':
      if (name.length > 63) return [fieldError.invalid(field, name, 'must be no more than 63 characters')];
      return LABEL.test(name) ? [] : [fieldError.invalid(field, name, LABEL_MESSAGE)];
    case 'path-segment':
      if (name === '.' || name === '..') return [fieldError.invalid(field, name, `may not be '${name}'`)];
      for (const bad of ['/', '%']) {
        if (name.includes(bad)) return [fieldError.invalid(field, name, `may not contain '${bad}'`)];
      }
      return [];
  }
}

/** A name that must be a DNS label (a container's or a port's name), with kube's message. */
export function validateDnsLabel(value: string, field: string): StatusCause[] {
  return validateName(value, 'label', field);
}

/** A label or annotation key, or a finalizer: `[prefix/]name`. */
function validateQualifiedName(value: string, field: string): StatusCause[] {
  const slash = value.lastIndexOf('/');
  const prefix = slash >= 0 ? value.slice(0, slash) : undefined;
  const name = slash >= 0 ? value.slice(slash + 1) : value;
  const causes: StatusCause[] = [];
  if (prefix !== undefined && (prefix.length > 253 || !SUBDOMAIN.test(prefix))) {
    causes.push(fieldError.invalid(field, value, `prefix part ${SUBDOMAIN_MESSAGE}`));
  }
  if (name.length === 0 || name.length > 63 || !QUALIFIED_NAME_PART.test(name)) {
    causes.push(
      fieldError.invalid(
        field,
        value,
        name.length > 63 ? 'name part must be no more than 63 characters' : NAME_PART_MESSAGE,
      ),
    );
  }
  return causes;
}

/** What every object's metadata must satisfy, whatever its kind. */
export function validateObjectMeta(meta: ObjectMeta, rule: NameRule): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!meta.name) causes.push(fieldError.required('metadata.name', 'name or generateName is required'));
  else causes.push(...validateName(meta.name, rule));
  causes.push(...validateStringMap(meta.labels, 'metadata.labels', true));
  causes.push(...validateStringMap(meta.annotations, 'metadata.annotations', false));
  if (meta.finalizers !== undefined) {
    if (!Array.isArray(meta.finalizers))
      causes.push(fieldError.invalid('metadata.finalizers', meta.finalizers, 'must be a list'));
    else
      meta.finalizers.forEach((f, i) =>
        causes.push(...validateQualifiedName(f, `metadata.finalizers[${i}]`)),
      );
  }
  (meta.ownerReferences ?? []).forEach((ref, i) => {
    const at = `metadata.ownerReferences[${i}]`;
    if (!isRecord(ref)) return causes.push(fieldError.invalid(at, ref, 'must be an object'));
    for (const key of ['apiVersion', 'kind', 'name', 'uid'] as const) {
      if (!ref[key])
        causes.push(fieldError.required(`${at}.${key}`, key === 'uid' ? 'uid must not be empty' : ''));
    }
  });
  return causes;
}

function validateStringMap(map: unknown, field: string, labels: boolean): StatusCause[] {
  if (map === undefined) return [];
  if (!isRecord(map)) return [fieldError.invalid(field, map, 'must be a map of strings')];
  const causes: StatusCause[] = [];
  for (const [key, value] of Object.entries(map)) {
    causes.push(...validateQualifiedName(key, field));
    if (typeof value !== 'string') causes.push(fieldError.invalid(field, value, 'must be a string'));
    else if (labels && (value.length > 63 || !LABEL_VALUE.test(value))) {
      causes.push(
        fieldError.invalid(
          field,
          value,
          value.length > 63 ? 'must be no more than 63 characters' : LABEL_VALUE_MESSAGE,
        ),
      );
    }
  }
  return causes;
}
