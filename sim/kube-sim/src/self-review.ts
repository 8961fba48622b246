import { authorize, type RbacObjects, type RequestAttributes, type UserInfo } from './auth/index.js';
import { isRecord } from './json-value.js';
import { badRequest } from './status-error.js';

/** `SelfSubjectAccessReview` (kubectl auth can-i): the authorizer's answer for the caller. */
export function selfSubjectAccessReview(user: UserInfo, body: unknown, rbac: RbacObjects): unknown {
  const spec = isRecord(body) && isRecord(body.spec) ? body.spec : undefined;
  const resource = isRecord(spec?.resourceAttributes) ? spec.resourceAttributes : undefined;
  const nonResource = isRecord(spec?.nonResourceAttributes) ? spec.nonResourceAttributes : undefined;
  if (!spec || (!resource && !nonResource)) {
    throw badRequest(
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    );
  }
  const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
  const attrs: RequestAttributes = resource
    ? {
        user,
        verb: text(resource.verb) ?? '',
        resourceRequest: true,
        apiGroup: text(resource.group) ?? '',
        ...optional('apiVersion', text(resource.version)),
        ...optional('resource', text(resource.resource)),
        ...optional('subresource', text(resource.subresource)),
        ...optional('namespace', text(resource.namespace)),
        ...optional('name', text(resource.name)),
      }
    : {
        user,
        verb: text(nonResource?.verb) ?? '',
        resourceRequest: false,
        path: text(nonResource?.path) ?? '',
      };
  const decision = authorize(attrs, rbac);
  return {
    kind: 'SelfSubjectAccessReview',
    apiVersion: 'authorization.k8s.io/v1',
    metadata: { creationTimestamp: null },
    spec,
    status: { allowed: decision.allowed, ...(decision.reason ? { reason: decision.reason } : {}) },
  };
}

/** `SelfSubjectReview` (kubectl auth whoami): who the caller is. */
export function selfSubjectReview(user: UserInfo): unknown {
  return {
    kind: 'SelfSubjectReview',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { creationTimestamp: null },
    status: {
      userInfo: { username: user.username, ...(user.uid ? { uid: user.uid } : {}), groups: user.groups },
    },
  };
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
