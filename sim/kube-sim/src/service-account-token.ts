import { validateTokenRequest, type TokenAuthenticator } from './auth/index.js';
import { isRecord } from './json-value.js';
import type { ObjectStore } from './object-store.js';
import { resourceKey } from './resource-type.js';
import { badRequest, invalid, notFound } from './status-error.js';

/**
 * `POST /api/v1/namespaces/NS/serviceaccounts/NAME/token`: issues a bound token for the service
 * account and answers an `authentication.k8s.io/v1` TokenRequest, as `kubectl create token` expects.
 */
export function createServiceAccountToken(
  store: ObjectStore,
  authenticator: TokenAuthenticator,
  namespace: string,
  name: string,
  body: unknown,
): unknown {
  const account = store.get(resourceKey('', 'serviceaccounts'), namespace, name);
  if (!account) throw notFound({ group: '', resource: 'serviceaccounts' }, name);
  if (body !== undefined && !isRecord(body))
    throw badRequest(
      'TokenRequest in version "v1" cannot be handled as a TokenRequest: the body must be an object',
    );
  const spec = isRecord(body?.spec) ? body.spec : {};
  const audiences = Array.isArray(spec.audiences)
    ? spec.audiences.filter((a): a is string => typeof a === 'string')
    : [];
  const expirationSeconds = typeof spec.expirationSeconds === 'number' ? spec.expirationSeconds : undefined;
  const causes = validateTokenRequest({ ...(expirationSeconds !== undefined ? { expirationSeconds } : {}) });
  if (causes.length > 0)
    throw invalid({ group: 'authentication.k8s.io', kind: 'TokenRequest' }, name, causes);
  const issued = authenticator.issueServiceAccountToken({
    namespace,
    name,
    uid: account.metadata.uid ?? '',
    audiences,
    ...(expirationSeconds !== undefined ? { expirationSeconds } : {}),
  });
  return {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { name, namespace, creationTimestamp: null },
    spec: {
      audiences,
      expirationSeconds: expirationSeconds ?? 3600,
      boundObjectRef: spec.boundObjectRef ?? null,
    },
    status: { token: issued.token, expirationTimestamp: issued.expirationTimestamp },
  };
}
