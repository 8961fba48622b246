import { KubeForbiddenError } from '@noderings/kube';

import { agentKubeClient, operatorNamespace } from '../agents/index.js';
import { INVENTORY_NAME, type ProxmoxInventoryReading } from './proxmox-inventory.js';

/** Longest wait for an agent cluster's answer. */
const READ_TIMEOUT_MS = 5_000;

/**
 * Reads the ProxmoxInventory an agent's operator keeps in `{agent}-operator`, through the agent's
 * read-only kubeconfig. Never throws for the cluster's sake: a failed read says why, in words for the
 * provider that carry no network detail. Dials public addresses only unless `allowPrivateDestinations`.
 */
export async function readAgentInventory(
  agentId: string,
  kubeconfig: string,
  options: { readonly allowPrivateDestinations: boolean },
): Promise<ProxmoxInventoryReading> {
  const kube = agentKubeClient(kubeconfig, options);
  try {
    const inventory = await kube.proxmoxInventories.find(
      { namespace: operatorNamespace(agentId), name: INVENTORY_NAME },
      AbortSignal.timeout(READ_TIMEOUT_MS),
    );
    const status = inventory?.status;
    if (status?.nodes === undefined || status.observedAt === undefined)
      return { reported: false, why: "the agent's operator has not reported Proxmox's nodes yet" };
    return {
      reported: true,
      observedAt: new Date(status.observedAt),
      nodes: status.nodes.map((n) => ({ name: n.name, online: n.online, templateVmids: n.templateVmids })),
    };
  } catch (e: unknown) {
    if (e instanceof KubeForbiddenError)
      return { reported: false, why: "the agent's kubeconfig may not read the ProxmoxInventory" };
    return { reported: false, why: 'the agent cluster did not answer' };
  } finally {
    await kube.close();
  }
}
