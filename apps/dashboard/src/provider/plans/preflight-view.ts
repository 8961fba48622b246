import type { PreflightChain, PreflightCheck } from '../../api/api-resources.js';

/** What each check verifies, in a provider's words; sub-checks add their subject (`…_MEMORY`). */
const CHECK_TITLES: Readonly<Record<string, string>> = {
  PLAN_PRICED: 'Plan has a price',
  PLAN_PUBLIC: 'Plan is public',
  PLAN_PROVIDER_VERIFIED: 'Organisation verified',
  PLAN_HAS_NODES: 'Plan has nodes',
  AGENT_LINKED: 'Platform linked to an agent',
  AGENT_PROVISIONED: 'Agent installed',
  AGENT_PEERED: 'Agent peered',
  PLATFORM_ONLINE: 'Platform online',
  NODE_ONLINE: 'Node online',
  NODE_NOT_IN_MAINTENANCE: 'Node not in maintenance',
  NODE_INVENTORY_SYNCED: 'Inventory synced',
  NODE_COMPUTE_TYPE: 'Compute type matches',
  NODE_PLAN_FITS: 'Plan fits the node',
  NODE_CAPACITY_LEFT: 'Capacity left',
  NODE_VM_TEMPLATES: 'VM templates',
  NODE_ON_PROXMOX: 'Node exists in Proxmox',
  NODE_TEMPLATES_ON_PROXMOX: 'Templates exist in Proxmox',
  NODE_CLOUD_INIT: 'Cloud-init compiles',
  NODE_NETWORK: 'IPAM network',
  NODE_FREE_IPV4: 'Free IPv4 addresses',
  NODE_FREE_IPV6: 'Free IPv6 addresses',
  NODE_STORAGE_HEADROOM: 'Storage headroom',
};

const SUBJECTS: Readonly<Record<string, string>> = { CPU: 'CPU', MEMORY: 'memory', DISK: 'disk' };

/** NODE_CAPACITY_LEFT_MEMORY → "Capacity left: memory"; an unknown code reads as words. */
export function checkTitle(code: string): string {
  const exact = CHECK_TITLES[code];
  if (exact !== undefined) return exact;
  const base = Object.keys(CHECK_TITLES)
    .filter((known) => code.startsWith(`${known}_`))
    .sort((a, b) => b.length - a.length)[0];
  if (base !== undefined) {
    const subject = code.slice(base.length + 1);
    return `${CHECK_TITLES[base] ?? base}: ${SUBJECTS[subject] ?? subject.toLowerCase().replaceAll('_', ' ')}`;
  }
  const words = code.toLowerCase().replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Failing checks first, in the API's order: they are what the provider has to act on. */
export function partitionChecks(checks: readonly PreflightCheck[]): {
  failed: PreflightCheck[];
  passed: PreflightCheck[];
} {
  return { failed: checks.filter((c) => !c.passed), passed: checks.filter((c) => c.passed) };
}

/** "sandbox-agent → pve-sim → pve1": the path an order placed on that node takes. */
export function chainLabel(chain: PreflightChain): string {
  return `${chain.agent.name || 'No agent'} → ${chain.agent.platform.name} → ${chain.agent.platform.node.name}`;
}

/** How many of the chains (nodes) pass every check. */
export function passingChains(chains: readonly PreflightChain[]): number {
  return chains.filter((c) => c.passed).length;
}
