import type { KubeObject } from '@noderings/kube';

import type { AgentStack } from './agent-stack-options.js';
import { METRICS_PORT, OPERATOR_NAME, OPERATOR_NAMESPACE } from './agent-stack-options.js';
import { CONTAINER_SECURITY_CONTEXT, POD_SECURITY_CONTEXT, httpProbe } from './pod-security.js';

const LABELS = { 'app.kubernetes.io/name': OPERATOR_NAME, 'app.kubernetes.io/part-of': 'noderings' };

/** The operator's Deployment: replicas compete for the Lease, only the leader reconciles. */
export function operatorDeployment(stack: AgentStack): KubeObject & { spec: unknown } {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: OPERATOR_NAME, namespace: OPERATOR_NAMESPACE, labels: LABELS },
    spec: {
      replicas: stack.replicas,
      selector: { matchLabels: { 'app.kubernetes.io/name': OPERATOR_NAME } },
      template: {
        metadata: { labels: LABELS },
        spec: {
          serviceAccountName: OPERATOR_NAME,
          securityContext: POD_SECURITY_CONTEXT,
          containers: [
            {
              name: 'operator',
              image: stack.image,
              args: [
                ...['--watch-namespace', stack.watchNamespace],
                ...['--operator-namespace', OPERATOR_NAMESPACE],
                ...['--metrics-listen', `0.0.0.0:${METRICS_PORT}`],
                '--leader-election',
              ],
              ports: [{ name: 'metrics', containerPort: METRICS_PORT, protocol: 'TCP' }],
              livenessProbe: httpProbe('/healthz', 'metrics', 20),
              readinessProbe: httpProbe('/readyz', 'metrics', 10),
              securityContext: CONTAINER_SECURITY_CONTEXT,
              resources: {
                requests: { cpu: '100m', memory: '128Mi' },
                limits: { cpu: '1', memory: '512Mi' },
              },
            },
          ],
        },
      },
    },
  };
}
