import type {
  ClusterRole,
  PolicyRule,
  RbacObjects,
  RequestAttributes,
  RoleRef,
  Subject,
} from './rbac-objects.js';
import type { UserInfo } from './user-info.js';

const ALL = '*';

export interface AuthorizationDecision {
  allowed: boolean;
  /** `RBAC: allowed by …` when allowed; when denied, the role references that failed to resolve. */
  reason?: string;
}

/**
 * Kubernetes RBAC: allowed when a rule of a role bound to the user covers the request. ClusterRoleBindings
 * apply everywhere; RoleBindings only to requests in their own namespace, even when they grant a
 * ClusterRole. A ClusterRole's aggregationRule is honoured by adding the rules of the ClusterRoles its
 * selectors match (kube's aggregation controller writes that union into `.rules`).
 */
export function authorize(attrs: RequestAttributes, rbac: RbacObjects): AuthorizationDecision {
  const errors: string[] = [];
  for (const binding of rbac.clusterRoleBindings) {
    const subject = subjectFor(attrs.user, binding.subjects, '');
    if (!subject) continue;
    const rules = resolveRoleRef(binding.roleRef, '', rbac, errors);
    if (rules?.some((rule) => ruleAllows(attrs, rule))) {
      const source = `ClusterRoleBinding ${quote(binding.metadata.name)} of ${binding.roleRef.kind} ${quote(binding.roleRef.name)}`;
      return { allowed: true, reason: `RBAC: allowed by ${source} to ${describeSubject(subject, '')}` };
    }
  }
  const namespace = attrs.namespace ?? '';
  if (namespace !== '') {
    for (const binding of rbac.roleBindings) {
      if (binding.metadata.namespace !== namespace) continue;
      const subject = subjectFor(attrs.user, binding.subjects, namespace);
      if (!subject) continue;
      const rules = resolveRoleRef(binding.roleRef, namespace, rbac, errors);
      if (rules?.some((rule) => ruleAllows(attrs, rule))) {
        const name = `${binding.metadata.name}/${namespace}`;
        const source = `RoleBinding ${quote(name)} of ${binding.roleRef.kind} ${quote(binding.roleRef.name)}`;
        return {
          allowed: true,
          reason: `RBAC: allowed by ${source} to ${describeSubject(subject, namespace)}`,
        };
      }
    }
  }
  if (errors.length === 0) return { allowed: false };
  const aggregate = errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]`;
  return { allowed: false, reason: `RBAC: ${aggregate}` };
}

/**
 * The message of the 403 Status kube-apiserver answers with, e.g. `proxmoxvms.vm.noderings.com "nr-1" is
 * forbidden: User "alice" cannot get resource "proxmoxvms" in API group "vm.noderings.com" in the
 * namespace "a-operator"`. `reason` is the authorizer's (authorize().reason when denied), appended
 * after a colon as kube does.
 */
export function forbiddenMessage(attrs: RequestAttributes, reason?: string): string {
  const user = quote(attrs.user.username);
  let detail: string;
  if (!attrs.resourceRequest) {
    detail = `User ${user} cannot ${attrs.verb} path ${quote(attrs.path ?? '')}`;
  } else {
    const resource = attrs.subresource
      ? `${attrs.resource ?? ''}/${attrs.subresource}`
      : (attrs.resource ?? '');
    const scope = attrs.namespace ? `in the namespace ${quote(attrs.namespace)}` : 'at the cluster scope';
    detail = `User ${user} cannot ${attrs.verb} resource ${quote(resource)} in API group ${quote(attrs.apiGroup ?? '')} ${scope}`;
  }
  if (reason) detail = `${detail}: ${reason}`;
  const group = attrs.resourceRequest ? (attrs.apiGroup ?? '') : '';
  const resource = attrs.resourceRequest ? (attrs.resource ?? '') : '';
  if (group === '' && resource === '') return `forbidden: ${detail}`;
  const qualified = group === '' ? resource : `${resource}.${group}`;
  return attrs.name
    ? `${qualified} ${quote(attrs.name)} is forbidden: ${detail}`
    : `${qualified} is forbidden: ${detail}`;
}

/** Go's %q for the strings that appear here. */
function quote(value: string): string {
  return JSON.stringify(value);
}

function subjectFor(user: UserInfo, subjects: Subject[] | undefined, namespace: string): Subject | undefined {
  return subjects?.find((subject) => appliesTo(user, subject, namespace));
}

function appliesTo(user: UserInfo, subject: Subject, namespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.username === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const saNamespace = serviceAccountNamespace(subject, namespace);
      return saNamespace !== '' && user.username === `system:serviceaccount:${saNamespace}:${subject.name}`;
    }
    default:
      return false;
  }
}

/** A subject's namespace, defaulting (when absent or empty) to the binding's, as kube does. */
function serviceAccountNamespace(subject: Subject, bindingNamespace: string): string {
  return subject.namespace !== undefined && subject.namespace !== '' ? subject.namespace : bindingNamespace;
}

function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount') {
    return `${subject.kind} ${quote(`${subject.name}/${serviceAccountNamespace(subject, bindingNamespace)}`)}`;
  }
  return `${subject.kind} ${quote(subject.name)}`;
}

function resolveRoleRef(
  ref: RoleRef,
  namespace: string,
  rbac: RbacObjects,
  errors: string[],
): PolicyRule[] | undefined {
  if (ref.kind === 'ClusterRole') {
    const role = rbac.clusterRoles.find((r) => r.metadata.name === ref.name);
    if (!role) {
      errors.push(`clusterrole.rbac.authorization.k8s.io ${quote(ref.name)} not found`);
      return undefined;
    }
    return clusterRoleRules(role, rbac.clusterRoles, new Set());
  }
  const role = rbac.roles.find((r) => r.metadata.namespace === namespace && r.metadata.name === ref.name);
  if (!role) {
    errors.push(`role.rbac.authorization.k8s.io ${quote(ref.name)} not found`);
    return undefined;
  }
  return role.rules ?? [];
}

function clusterRoleRules(role: ClusterRole, all: ClusterRole[], visited: Set<string>): PolicyRule[] {
  visited.add(role.metadata.name);
  const rules = [...(role.rules ?? [])];
  const selectors = aggregationSelectors(role.aggregationRule);
  if (selectors.length === 0) return rules;
  for (const candidate of all) {
    if (visited.has(candidate.metadata.name)) continue;
    const labels = candidate.metadata.labels ?? {};
    if (selectors.some((selector) => selectorMatches(selector, labels))) {
      rules.push(...clusterRoleRules(candidate, all, visited));
    }
  }
  return rules;
}

interface LabelSelector {
  matchLabels?: Record<string, unknown>;
  matchExpressions?: { key?: unknown; operator?: unknown; values?: unknown }[];
}

function aggregationSelectors(rule: unknown): LabelSelector[] {
  if (typeof rule !== 'object' || rule === null) return [];
  const selectors = (rule as { clusterRoleSelectors?: unknown }).clusterRoleSelectors;
  if (!Array.isArray(selectors)) return [];
  return selectors.filter((s): s is LabelSelector => typeof s === 'object' && s !== null);
}

/** An empty selector matches nothing here, as kube's aggregation controller skips it. */
function selectorMatches(selector: LabelSelector, labels: Record<string, string>): boolean {
  const matchLabels = Object.entries(selector.matchLabels ?? {});
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  if (matchLabels.length === 0 && expressions.length === 0) return false;
  return (
    matchLabels.every(([key, value]) => labels[key] === value) &&
    expressions.every((expression) => expressionMatches(expression, labels))
  );
}

function expressionMatches(
  expression: { key?: unknown; operator?: unknown; values?: unknown },
  labels: Record<string, string>,
): boolean {
  if (typeof expression.key !== 'string') return false;
  const value = labels[expression.key];
  const values = Array.isArray(expression.values) ? (expression.values as unknown[]) : [];
  switch (expression.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    default:
      return false;
  }
}

function ruleAllows(attrs: RequestAttributes, rule: PolicyRule): boolean {
  if (!includesOrAll(rule.verbs, attrs.verb)) return false;
  if (!attrs.resourceRequest) return nonResourceUrlMatches(rule.nonResourceURLs ?? [], attrs.path ?? '');
  return (
    includesOrAll(rule.apiGroups ?? [], attrs.apiGroup ?? '') &&
    resourceMatches(rule.resources ?? [], attrs.resource ?? '', attrs.subresource ?? '') &&
    resourceNameMatches(rule.resourceNames ?? [], attrs.name ?? '')
  );
}

function includesOrAll(values: string[], value: string): boolean {
  return values.includes(ALL) || values.includes(value);
}

function resourceMatches(ruleResources: string[], resource: string, subresource: string): boolean {
  const combined = subresource ? `${resource}/${subresource}` : resource;
  return ruleResources.some(
    (r) => r === ALL || r === combined || (subresource !== '' && r === `${ALL}/${subresource}`),
  );
}

/** A rule naming resources never covers a request without a name (list, watch, create). */
function resourceNameMatches(names: string[], name: string): boolean {
  return names.length === 0 || (name !== '' && names.includes(name));
}

function nonResourceUrlMatches(urls: string[], path: string): boolean {
  return urls.some(
    (url) => url === ALL || url === path || (url.endsWith(ALL) && path.startsWith(url.slice(0, -1))),
  );
}
