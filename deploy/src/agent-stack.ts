import type { KubeObject } from '@noderings/kube';
import { loadCrds } from '@noderings/kube';

import type { AgentStackOptions } from './agent-stack-options.js';
import { OPERATOR_NAMESPACE, agentStack } from './agent-stack-options.js';
import { alloyObjects } from './alloy-deployment.js';
import { controlPlaneRbac } from './control-plane-rbac.js';
import { operatorDeployment } from './operator-deployment.js';
import { operatorRbac } from './operator-rbac.js';
import { pveExporterObjects } from './pve-exporter-deployment.js';

/**
 * Every object of an agent's operator stack, in the order they can be applied: namespaces, CRDs,
 * accounts and their roles, then the Deployment; with `metrics`, the pve-exporter and Alloy after it.
 * The two Secrets those read (`pveExporterConfigSecret`, `metricsWriteCredentialSecret`) are not
 * rendered: `nr` writes them with the credentials.
 */
export function renderAgentStack(options: AgentStackOptions): KubeObject[] {
  const stack = agentStack(options);
  const namespace = (name: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
  });
  return [
    namespace(OPERATOR_NAMESPACE),
    namespace(stack.watchNamespace),
    ...loadCrds(),
    ...operatorRbac(stack),
    ...controlPlaneRbac(stack),
    operatorDeployment(stack),
    ...(stack.metrics === undefined
      ? []
      : [
          ...pveExporterObjects({ metrics: stack.metrics }),
          ...alloyObjects({ metrics: stack.metrics, agentId: stack.agentId }),
        ]),
  ];
}
