import type { KubeObject } from './kube-object.js';
import { isRecord, jsonEqual } from './json-value.js';
import type { NameRule } from './object-meta-validation.js';
import type { ResourceType } from './resource-type.js';
import { validateCustomResourceDefinition } from './schema/index.js';
import { admitService, type ServiceContext } from './service-admission.js';
import { badRequest, fieldError, type StatusCause } from './status-error.js';
import { admitDaemonSet, admitDeployment } from './workload-admission.js';

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const CONFIG_KEY_MESSAGE =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const MAX_SECRET_BYTES = 1024 * 1024;

export function nameRuleOf(type: ResourceType): NameRule {
  if (type.group === 'rbac.authorization.k8s.io') return 'path-segment';
  if (type.plural === 'namespaces') return 'label';
  return 'subdomain';
}

/**
 * Defaults, decoding checks and validation of the built-in kinds. Decoding problems (a Secret's data
 * that is not base64, a ConfigMap value that is not a string) are 400s, as kube fails to decode such
 * bodies; the returned causes become one 422.
 */
export function admitBuiltin(
  type: ResourceType,
  object: KubeObject,
  old: KubeObject | undefined,
  context: ServiceContext,
): { object: KubeObject; causes: StatusCause[] } {
  switch (`${type.group}/${type.plural}`) {
    case '/services':
      return admitService(object, old, context);
    case 'apps/deployments':
      return admitDeployment(object, old);
    case 'apps/daemonsets':
      return admitDaemonSet(object, old);
    case '/secrets':
      return admitSecret(object, old);
    case '/configmaps':
      return admitConfigMap(object, old);
    case '/namespaces':
      return admitNamespace(object, old);
    case 'rbac.authorization.k8s.io/roles':
    case 'rbac.authorization.k8s.io/clusterroles':
      return { object, causes: validateRules(object) };
    case 'rbac.authorization.k8s.io/rolebindings':
    case 'rbac.authorization.k8s.io/clusterrolebindings':
      return { object, causes: validateBinding(object, old, type.kind) };
    case 'apiextensions.k8s.io/customresourcedefinitions':
      return { object, causes: validateCrd(object, old) };
    default:
      return { object, causes: [] };
  }
}

function decodeError(kind: string, detail: string): Error {
  return badRequest(`${kind} in version "v1" cannot be handled as a ${kind}: ${detail}`);
}

function stringMap(kind: string, field: string, value: unknown): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value))
    throw decodeError(
      kind,
      `json: cannot unmarshal ${jsonType(value)} into Go struct field ${kind}.${field} of type map[string]string`,
    );
  for (const v of Object.values(value)) {
    if (typeof v !== 'string')
      throw decodeError(
        kind,
        `json: cannot unmarshal ${jsonType(v)} into Go struct field ${kind}.${field} of type string`,
      );
  }
  return value as Record<string, string>;
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'object' : typeof value;
}

function checkBase64(kind: string, values: Record<string, string>): void {
  for (const v of Object.values(values)) {
    if (BASE64.test(v)) continue;
    const bad = v.search(/[^A-Za-z0-9+/=]/);
    throw decodeError(
      kind,
      `illegal base64 data at input byte ${bad >= 0 ? bad : Math.floor(v.length / 4) * 4}`,
    );
  }
}

function validateKeys(values: Record<string, string> | undefined, field: string): StatusCause[] {
  return Object.keys(values ?? {}).flatMap((k) =>
    CONFIG_KEY.test(k) && k !== '.' && k !== '..' && k.length <= 253
      ? []
      : [fieldError.invalid(`${field}[${k}]`, k, CONFIG_KEY_MESSAGE)],
  );
}

function immutability(object: KubeObject, old: KubeObject | undefined, fields: string[]): StatusCause[] {
  if (old?.immutable !== true) return [];
  const causes: StatusCause[] = [];
  for (const f of fields) {
    if (!jsonEqual(object[f], old[f]))
      causes.push(fieldError.forbidden(f, 'field is immutable when `immutable` is set'));
  }
  if (object.immutable !== true)
    causes.push(fieldError.forbidden('immutable', 'field is immutable when `immutable` is set'));
  return causes;
}

function admitSecret(
  input: KubeObject,
  old: KubeObject | undefined,
): { object: KubeObject; causes: StatusCause[] } {
  const data = stringMap('Secret', 'data', input.data);
  if (data) checkBase64('Secret', data);
  const stringData = stringMap('Secret', 'stringData', input.stringData);
  const merged: Record<string, string> = { ...data };
  for (const [k, v] of Object.entries(stringData ?? {}))
    merged[k] = Buffer.from(v, 'utf8').toString('base64');
  const { stringData: _dropped, ...rest } = input;
  const object: KubeObject = { ...rest, type: input.type ?? 'Opaque' };
  if (Object.keys(merged).length > 0 || data) object.data = merged;
  const causes = validateKeys(merged, 'data');
  const size = Object.entries(merged).reduce(
    (n, [k, v]) => n + k.length + Buffer.from(v, 'base64').length,
    0,
  );
  if (size > MAX_SECRET_BYTES) causes.push(fieldError.tooLong('data', MAX_SECRET_BYTES));
  if (old && old.type !== object.type)
    causes.push(fieldError.invalid('type', object.type, 'field is immutable'));
  causes.push(...immutability(object, old, ['data']));
  return { object, causes };
}

function admitConfigMap(
  object: KubeObject,
  old: KubeObject | undefined,
): { object: KubeObject; causes: StatusCause[] } {
  const data = stringMap('ConfigMap', 'data', object.data);
  const binary = stringMap('ConfigMap', 'binaryData', object.binaryData);
  if (binary) checkBase64('ConfigMap', binary);
  const causes = [...validateKeys(data, 'data'), ...validateKeys(binary, 'binaryData')];
  for (const k of Object.keys(binary ?? {})) {
    if (data && k in data)
      causes.push(fieldError.invalid(`binaryData[${k}]`, k, 'duplicate of key present in data'));
  }
  causes.push(...immutability(object, old, ['data', 'binaryData']));
  return { object, causes };
}

function admitNamespace(
  object: KubeObject,
  old: KubeObject | undefined,
): { object: KubeObject; causes: StatusCause[] } {
  const spec = isRecord(object.spec) ? object.spec : {};
  const status = isRecord(object.status) ? object.status : {};
  return {
    object: {
      ...object,
      spec: { ...spec, finalizers: old ? (spec.finalizers ?? []) : ['kubernetes'] },
      status: {
        ...status,
        phase: old?.metadata.deletionTimestamp ? 'Terminating' : (status.phase ?? 'Active'),
      },
    },
    causes: [],
  };
}

function validateRules(object: KubeObject): StatusCause[] {
  const rules = object.rules ?? [];
  if (!Array.isArray(rules)) return [fieldError.invalid('rules', rules, 'must be a list')];
  return rules.flatMap((rule: unknown, i): StatusCause[] => {
    if (!isRecord(rule)) return [fieldError.invalid(`rules[${i}]`, rule, 'must be an object')];
    const verbs = rule.verbs;
    if (!Array.isArray(verbs) || verbs.length === 0) {
      return [fieldError.required(`rules[${i}].verbs`, 'verbs must contain at least one value')];
    }
    const resources = Array.isArray(rule.resources) && rule.resources.length > 0;
    const urls = Array.isArray(rule.nonResourceURLs) && rule.nonResourceURLs.length > 0;
    if (!resources && !urls && object.kind === 'Role') {
      return [
        fieldError.required(`rules[${i}].resources`, 'resource rules must supply at least one api group'),
      ];
    }
    return [];
  });
}

function validateBinding(object: KubeObject, old: KubeObject | undefined, kind: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const roleRef = object.roleRef;
  if (!isRecord(roleRef)) return [fieldError.required('roleRef', '')];
  const allowed = kind === 'RoleBinding' ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!allowed.includes(String(roleRef.kind))) {
    causes.push({
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${JSON.stringify(roleRef.kind)}: supported values: ${allowed.map((a) => `"${a}"`).join(', ')}`,
      field: 'roleRef.kind',
    });
  }
  if (!roleRef.name) causes.push(fieldError.required('roleRef.name', ''));
  if (roleRef.apiGroup !== 'rbac.authorization.k8s.io') {
    causes.push({
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${JSON.stringify(roleRef.apiGroup ?? '')}: supported values: "rbac.authorization.k8s.io"`,
      field: 'roleRef.apiGroup',
    });
  }
  if (old && !jsonEqual(old.roleRef, roleRef))
    causes.push(fieldError.invalid('roleRef', roleRef, 'cannot change roleRef'));
  const subjects = object.subjects ?? [];
  if (!Array.isArray(subjects))
    return [...causes, fieldError.invalid('subjects', subjects, 'must be a list')];
  subjects.forEach((s: unknown, i) => {
    const at = `subjects[${i}]`;
    if (!isRecord(s)) return causes.push(fieldError.invalid(at, s, 'must be an object'));
    if (!['ServiceAccount', 'User', 'Group'].includes(String(s.kind))) {
      causes.push({
        reason: 'FieldValueNotSupported',
        message: `Unsupported value: ${JSON.stringify(s.kind)}: supported values: "ServiceAccount", "User", "Group"`,
        field: `${at}.kind`,
      });
    }
    if (!s.name) causes.push(fieldError.required(`${at}.name`, ''));
    if (s.kind === 'ServiceAccount' && !s.namespace && kind === 'ClusterRoleBinding')
      causes.push(fieldError.required(`${at}.namespace`, ''));
  });
  return causes;
}

function validateCrd(object: KubeObject, old: KubeObject | undefined): StatusCause[] {
  const causes: StatusCause[] = [...validateCustomResourceDefinition(object)];
  const spec = isRecord(object.spec) ? object.spec : {};
  const names = isRecord(spec.names) ? spec.names : {};
  const expected = `${String(names.plural)}.${String(spec.group)}`;
  if (object.metadata.name !== expected && !causes.some((c) => c.field === 'metadata.name')) {
    causes.push(
      fieldError.invalid('metadata.name', object.metadata.name, 'must be spec.names.plural+"."+spec.group'),
    );
  }
  const oldSpec = old && isRecord(old.spec) ? old.spec : undefined;
  if (oldSpec && oldSpec.group !== spec.group)
    causes.push(fieldError.invalid('spec.group', spec.group, 'field is immutable'));
  return causes;
}
