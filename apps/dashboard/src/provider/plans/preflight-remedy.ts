import type { PreflightChain } from '../../api/api-resources.js';
import { paths } from '../../shell/navigation.js';
import { agentAnchor, kubeconfigAnchor } from '../agents/agent-anchors.js';

/** Where a failed check is fixed: a link the check shows beside its note. */
export interface Remedy {
  readonly to: string;
  readonly label: string;
}

type Chain = PreflightChain['agent'];
type RemedyRule = (chain: Chain) => Remedy | undefined;

const agentPage = (chain: Chain, anchor: (id: string) => string, label: string): Remedy | undefined =>
  chain.id === null ? undefined : { to: `${paths.agents}#${anchor(chain.id)}`, label };
const platformPage = (chain: Chain, label: string): Remedy => ({
  to: `${paths.platformsNodes}#platform-${chain.platform.id}`,
  label,
});
const nodePage = (chain: Chain): Remedy => ({
  to: `${paths.platformsNodes}#node-${chain.platform.node.id}`,
  label: `Open node ${chain.platform.node.name}`,
});

/**
 * The page that fixes each infrastructure check, by its code (sub-checks take their parent's). The plan's
 * own checks are fixed beside them (`plan-check-fix.tsx`); `PLAN_PROVIDER_VERIFIED` waits for staff.
 */
const REMEDIES: Readonly<Record<string, RemedyRule>> = {
  AGENT_LINKED: (c) => platformPage(c, `Link an agent to ${c.platform.name}`),
  AGENT_PROVISIONED: (c) => agentPage(c, agentAnchor, `Generate the install command of ${c.name}`),
  AGENT_PEERED: (c) => agentPage(c, kubeconfigAnchor, `Upload the kubeconfig of ${c.name}`),
  PLATFORM_ONLINE: (c) => platformPage(c, `Open platform ${c.platform.name}`),
  NODE_ONLINE: nodePage,
  NODE_NOT_IN_MAINTENANCE: nodePage,
  NODE_INVENTORY_SYNCED: nodePage,
  NODE_COMPUTE_TYPE: nodePage,
  NODE_PLAN_FITS: nodePage,
  NODE_CAPACITY_LEFT: nodePage,
  NODE_STORAGE_HEADROOM: nodePage,
  NODE_VM_TEMPLATES: (c) => ({
    to: paths.vmTemplates,
    label: `Register VM templates for ${c.platform.node.name}`,
  }),
  // The node's name must be one Proxmox has; its templates, VMIDs Proxmox holds as templates there.
  NODE_ON_PROXMOX: nodePage,
  NODE_TEMPLATES_ON_PROXMOX: (c) => ({
    to: paths.vmTemplates,
    label: `Check the VM templates of ${c.platform.node.name}`,
  }),
  NODE_CLOUD_INIT: () => ({ to: paths.cloudInitTemplates, label: 'Open the cloud-init templates' }),
  NODE_NETWORK: (c) => ({ to: paths.ipam, label: `Assign ${c.platform.node.name} a network in IPAM` }),
  NODE_FREE_IPV4: () => ({ to: paths.ipam, label: 'Add an IPv4 prefix in IPAM' }),
  NODE_FREE_IPV6: () => ({ to: paths.ipam, label: 'Add an IPv6 prefix in IPAM' }),
};

/** The remedy of a failed check of `chain`, or undefined when none is a page away. */
export function remedyOf(code: string, chain: Chain): Remedy | undefined {
  const rule =
    REMEDIES[code] ??
    Object.entries(REMEDIES)
      .filter(([known]) => code.startsWith(`${known}_`))
      .sort(([a], [b]) => b.length - a.length)[0]?.[1];
  return rule?.(chain);
}
