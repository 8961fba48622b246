import { stringify } from 'yaml';

export interface KubeconfigInput {
  server: string;
  /** PEM of the CA; absent over plain HTTP. */
  caPem: string | undefined;
  token: string;
  user: string;
  namespace?: string;
}

const CONTEXT_NAME = 'kube-sim';

/** A kubeconfig with one cluster, one token user and a current context, as kubectl and client-node read it. */
export function kubeconfigYaml(input: KubeconfigInput): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: CONTEXT_NAME,
        cluster: {
          server: input.server,
          ...(input.caPem
            ? { 'certificate-authority-data': Buffer.from(input.caPem).toString('base64') }
            : {}),
        },
      },
    ],
    users: [{ name: input.user, user: { token: input.token } }],
    contexts: [
      {
        name: CONTEXT_NAME,
        context: {
          cluster: CONTEXT_NAME,
          user: input.user,
          ...(input.namespace ? { namespace: input.namespace } : {}),
        },
      },
    ],
    'current-context': CONTEXT_NAME,
    preferences: {},
  });
}
