import { stringify } from 'yaml';

const CONTEXT_NAME = 'noderings';

/**
 * The kubeconfig an agent cluster uses to reach its tenant namespace on the NodeRings side. Its only
 * credential is an agent-scoped token: it acts for that one agent, and it expires.
 */
export function peeringConfigYaml(input: { server: string; namespace: string; token: string }): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: CONTEXT_NAME, cluster: { server: input.server } }],
    users: [{ name: CONTEXT_NAME, user: { token: input.token } }],
    contexts: [
      {
        name: CONTEXT_NAME,
        context: { cluster: CONTEXT_NAME, user: CONTEXT_NAME, namespace: input.namespace },
      },
    ],
    'current-context': CONTEXT_NAME,
  });
}
