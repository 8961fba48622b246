import { InvalidArgumentError } from '@noderings/domain';
import { parse, stringify, YAMLError } from 'yaml';
import { z } from 'zod';

const FIELD = 'kubeconfig';
const CONTEXT_NAME = 'agent';
const PEM_CERTIFICATE = '-----BEGIN CERTIFICATE-----';

/**
 * Kubeconfig keys that would make the control plane read its own files, run a program, talk through a
 * proxy or skip TLS verification on a provider's say-so. A provider writes this document, so none of them
 * is accepted; the stored copy keeps only what is checked here.
 */
const FORBIDDEN_CLUSTER_KEYS: Readonly<Record<string, string>> = {
  'certificate-authority': 'must carry the CA inline as certificate-authority-data, not as a file path',
  'insecure-skip-tls-verify': 'must not turn off TLS verification',
  'proxy-url': 'must not name a proxy',
};
const FORBIDDEN_USER_KEYS: Readonly<Record<string, string>> = {
  exec: 'must not use an exec credential plugin',
  'auth-provider': 'must not use an auth provider plugin',
  tokenFile: 'must carry the token inline',
  'client-certificate': 'must carry the client certificate inline as client-certificate-data',
  'client-key': 'must carry the client key inline as client-key-data',
  username: 'must authenticate with a token or a client certificate, not a password',
  password: 'must authenticate with a token or a client certificate, not a password',
  as: 'must not impersonate',
  'as-groups': 'must not impersonate',
  'as-uid': 'must not impersonate',
  'as-user-extra': 'must not impersonate',
};

const document = z.object({
  clusters: z.array(z.object({ name: z.string().min(1), cluster: z.record(z.string(), z.unknown()) })).min(1),
  users: z.array(z.object({ name: z.string().min(1), user: z.record(z.string(), z.unknown()) })).min(1),
  contexts: z
    .array(
      z.object({ name: z.string().min(1), context: z.object({ cluster: z.string(), user: z.string() }) }),
    )
    .min(1),
  'current-context': z.string().min(1),
});

const pemBase64 = z
  .base64()
  .refine((v) => Buffer.from(v, 'base64').toString('utf8').includes(PEM_CERTIFICATE), {
    error: 'must be a base64 PEM certificate',
  });

const cluster = z.object({
  server: z.url({ protocol: /^https$/, error: 'must be an https:// URL' }),
  'certificate-authority-data': pemBase64.optional(),
  'tls-server-name': z.string().min(1).max(253).optional(),
});

const user = z.union(
  [
    z.object({ token: z.string().min(1).max(16_384) }),
    z.object({ 'client-certificate-data': pemBase64, 'client-key-data': z.base64().min(1) }),
  ],
  { error: 'must have a token, or client-certificate-data with client-key-data' },
);

/** A provider's kubeconfig for its agent cluster, reduced to one context of checked, inline values. */
export interface InboundKubeconfig {
  /** The reduced document: what is stored and what clients load. */
  readonly yaml: string;
  readonly server: string;
  /** The credential values, so that no message built from a failure can carry them. */
  readonly secrets: readonly string[];
}

/** Parses an uploaded kubeconfig; anything unusable is an INVALID_ARGUMENT on `kubeconfig`. */
export function parseInboundKubeconfig(text: string): InboundKubeconfig {
  const doc = document.safeParse(parseYaml(text));
  if (!doc.success) throw invalid(`is not a kubeconfig: ${firstIssue(doc.error)}`);
  const contextName = doc.data['current-context'];
  const context = doc.data.contexts.find((c) => c.name === contextName)?.context;
  if (context === undefined) throw invalid(`current-context ${contextName} is not among its contexts`);
  const rawCluster = doc.data.clusters.find((c) => c.name === context.cluster)?.cluster;
  if (rawCluster === undefined) throw invalid(`cluster ${context.cluster} is not among its clusters`);
  const rawUser = doc.data.users.find((u) => u.name === context.user)?.user;
  if (rawUser === undefined) throw invalid(`user ${context.user} is not among its users`);

  refuseKeys(rawCluster, FORBIDDEN_CLUSTER_KEYS, `cluster ${context.cluster}`);
  refuseKeys(rawUser, FORBIDDEN_USER_KEYS, `user ${context.user}`);
  const checkedCluster = cluster.safeParse(rawCluster);
  if (!checkedCluster.success)
    throw invalid(`cluster ${context.cluster}: ${firstIssue(checkedCluster.error)}`);
  const checkedUser = user.safeParse(rawUser);
  if (!checkedUser.success) throw invalid(`user ${context.user}: ${firstIssue(checkedUser.error)}`);

  const credential = checkedUser.data;
  const reduced = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: CONTEXT_NAME, cluster: checkedCluster.data }],
    users: [{ name: CONTEXT_NAME, user: credential }],
    contexts: [{ name: CONTEXT_NAME, context: { cluster: CONTEXT_NAME, user: CONTEXT_NAME } }],
    'current-context': CONTEXT_NAME,
  };
  return {
    yaml: stringify(reduced),
    server: checkedCluster.data.server,
    secrets: 'token' in credential ? [credential.token] : [credential['client-key-data']],
  };
}

function parseYaml(text: string): unknown {
  try {
    return parse(text);
  } catch (e: unknown) {
    // The parser's own message quotes the offending line, which may hold the token.
    if (e instanceof YAMLError) {
      const at = e.linePos?.[0];
      throw invalid(
        at === undefined ? 'is not valid YAML' : `is not valid YAML (line ${at.line}, column ${at.col})`,
      );
    }
    throw e;
  }
}

function refuseKeys(
  entry: Record<string, unknown>,
  forbidden: Readonly<Record<string, string>>,
  what: string,
): void {
  for (const [key, description] of Object.entries(forbidden)) {
    if (key in entry && entry[key] !== false && entry[key] !== null) throw invalid(`${what} ${description}`);
  }
}

/** The first problem, with its path but never the value (which may be a credential). */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'is invalid';
  const path = issue.path.map(String).join('.');
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}

function invalid(description: string): InvalidArgumentError {
  return InvalidArgumentError.field(FIELD, description);
}
