import type { FastifyInstance } from 'fastify';

import type { AgentService } from '../agents/index.js';
import type { FirewallService } from '../firewall/index.js';
import { worker, type ModuleContext, type Signal, type Worker } from '../module.js';
import type { OutboundSmtpService } from '../outbound-smtp/index.js';
import type { ClaimService } from '../placement/index.js';
import type { VirtualMachineService } from '../virtual-machines/index.js';
import { Dispatcher } from './dispatcher.js';

export interface DispatchModuleDeps extends ModuleContext {
  readonly agents: Pick<AgentService, 'inboundKubeconfig'>;
  readonly claims: Pick<ClaimService, 'release'>;
  readonly vms: Pick<VirtualMachineService, 'placeAgain'>;
  readonly smtp: Pick<OutboundSmtpService, 'effectiveBlockedFor'>;
  readonly firewall: Pick<FirewallService, 'compiledRuleSetFor'>;
  /** Other modules' word that wanted state changed: the dispatcher looks for due VMs at once. */
  readonly wakeups: Signal;
  readonly allowPrivateDestinations: boolean;
  /** This replica, as its leases name it. */
  readonly owner: string;
}

/** Carries every VM's wanted state into its provider's agent cluster, and its status back. */
export function registerDispatchModule(
  app: FastifyInstance,
  deps: DispatchModuleDeps,
): { readonly workers: readonly Worker[] } {
  const dispatcher = new Dispatcher({
    db: deps.db,
    secretBox: deps.secretBox,
    kubeconfigOf: (agentId) => deps.agents.inboundKubeconfig(agentId),
    allowPrivateDestinations: deps.allowPrivateDestinations,
    releaseClaim: (claimId) => deps.claims.release(claimId),
    placeAgain: (vmId) => deps.vms.placeAgain(vmId),
    networkPolicyOf: async (vmId) => ({
      smtpBlocked: await deps.smtp.effectiveBlockedFor(vmId),
      firewall: await deps.firewall.compiledRuleSetFor(vmId),
    }),
    now: deps.now,
    logger: app.log,
    owner: deps.owner,
  });
  deps.wakeups.receive(() => {
    dispatcher.kick();
  });
  return { workers: [worker('dispatcher', dispatcher)] };
}
