import type {
  Agent,
  CloudInitTemplate,
  HypervisorNode,
  IpamNetwork,
  IpamPrefix,
  Plan,
  Platform,
  PlanPreflight,
  Region,
  VmTemplate,
} from '../../api/api-resources.js';
import { paths } from '../../shell/navigation.js';

/** Everything the checklist is derived from: what the API says the provider has, nothing remembered. */
export interface OnboardingFacts {
  readonly organizationVerified: boolean;
  readonly regions: readonly Region[];
  readonly agents: readonly Agent[];
  readonly platforms: readonly Platform[];
  readonly nodes: readonly HypervisorNode[];
  readonly networks: readonly IpamNetwork[];
  readonly prefixes: readonly IpamPrefix[];
  readonly cloudInitTemplates: readonly CloudInitTemplate[];
  readonly vmTemplates: readonly VmTemplate[];
  readonly plans: readonly Plan[];
  readonly preflight: readonly PlanPreflight[];
}

export interface ChecklistStep {
  readonly id: string;
  readonly title: string;
  readonly done: boolean;
  /** What is there, or what is missing, in a sentence. */
  readonly detail: string;
  readonly link?: { readonly to: string; readonly label: string };
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function isConnected(agent: Agent): boolean {
  return agent.provisioned && agent.inboundPeeringState === 'INBOUND_PEERING_STATE_READY';
}

function agentStep(agents: readonly Agent[]): ChecklistStep {
  const connected = agents.filter(isConnected);
  const first = agents[0];
  let detail: string;
  if (connected.length > 0)
    detail = `${count(connected.length, 'agent is', 'agents are')} installed and peered.`;
  else if (first === undefined) detail = 'Create an agent first.';
  else if (!first.provisioned)
    detail = `${first.name} is not installed yet: run its install command on the agent VM.`;
  else if (first.inboundPeeringState === 'INBOUND_PEERING_STATE_FAILED')
    detail = `${first.name} could not peer: ${first.inboundPeeringError || 'see the agent page'}.`;
  else detail = `${first.name} is installed; peering is not complete yet.`;
  return {
    id: 'agent-connected',
    title: 'Install the agent and peer it',
    done: connected.length > 0,
    detail,
    link: { to: paths.agents, label: 'Go to agents' },
  };
}

function nodeStep(nodes: readonly HypervisorNode[]): ChecklistStep {
  const online = nodes.filter((n) => n.serviceStatus === 'SERVICE_STATUS_ONLINE' && !n.maintenanceMode);
  return {
    id: 'nodes-online',
    title: 'Add nodes and see them online',
    done: online.length > 0,
    detail:
      nodes.length === 0
        ? 'Add each Proxmox host of the platform as a node.'
        : `${online.length} of ${count(nodes.length, 'node', 'nodes')} online and taking VMs.`,
    link: { to: paths.platformsNodes, label: 'Go to platforms and nodes' },
  };
}

function ipamStep(networks: readonly IpamNetwork[], prefixes: readonly IpamPrefix[]): ChecklistStep {
  const usable = networks.filter(
    (n) => n.nodes.length > 0 && prefixes.some((p) => p.networkId === n.id && p.family === 'IP_FAMILY_IPV4'),
  );
  let detail: string;
  if (usable.length > 0) {
    const withV6 = usable.filter((n) =>
      prefixes.some((p) => p.networkId === n.id && p.family === 'IP_FAMILY_IPV6'),
    );
    detail = `${count(usable.length, 'network has', 'networks have')} nodes and an IPv4 prefix${
      withV6.length > 0 ? ', with IPv6 too' : '; add an IPv6 prefix for dual stack'
    }.`;
  } else if (networks.length === 0) detail = 'Create a network, add its prefixes and assign it to nodes.';
  else detail = 'A network needs an IPv4 prefix and at least one assigned node.';
  return {
    id: 'ipam',
    title: 'Create an IPAM network with prefixes',
    done: usable.length > 0,
    detail,
    link: { to: paths.ipam, label: 'Go to IPAM' },
  };
}

function preflightStep(plans: readonly Plan[], preflight: readonly PlanPreflight[]): ChecklistStep {
  const ready = preflight.filter((p) => p.marketplaceReady);
  const failing = preflight.filter((p) => !p.marketplaceReady);
  return {
    id: 'preflight',
    title: 'Pass preflight for every plan',
    done: preflight.length > 0 && failing.length === 0,
    detail:
      plans.length === 0
        ? 'Preflight runs once you have a plan.'
        : `${ready.length} of ${count(preflight.length, 'plan is', 'plans are')} marketplace-ready${
            failing[0] === undefined ? '.' : `; ${failing[0].planName}: ${failing[0].summaryNote}`
          }`,
    link: { to: paths.plans, label: 'Go to plans and preflight' },
  };
}

/** The provider onboarding phases (seed 002) as done / not done, in the order they are worked through. */
export function onboardingChecklist(facts: OnboardingFacts): ChecklistStep[] {
  const ownCloudInit = facts.cloudInitTemplates.filter((t) => !t.isTemplate);
  const linkedPlatforms = facts.platforms.filter((p) => p.agentId !== null);
  const activePlans = facts.plans.filter((p) => p.status !== 'STATUS_SOFT_DELETED');
  return [
    {
      id: 'organization-verified',
      title: 'Get your organisation verified',
      done: facts.organizationVerified,
      detail: facts.organizationVerified
        ? 'NodeRings staff have verified your organisation.'
        : 'NodeRings staff verify new provider organisations; plans are listed only after that.',
    },
    {
      id: 'region',
      title: 'Create a region',
      done: facts.regions.length > 0,
      detail:
        facts.regions.length > 0
          ? `${count(facts.regions.length, 'region', 'regions')}: ${facts.regions
              .map((r) => `${r.cityCountry.cityName} (${r.datacenter.name})`)
              .join(', ')}.`
          : 'Say where you sell: a city and a datacenter.',
      link: { to: paths.regions, label: 'Go to regions' },
    },
    {
      id: 'agent-created',
      title: 'Create an agent',
      done: facts.agents.length > 0,
      detail:
        facts.agents.length > 0
          ? `${count(facts.agents.length, 'agent', 'agents')}: ${facts.agents.map((a) => a.name).join(', ')}.`
          : 'The agent is the small cluster on your network that receives orders.',
      link: { to: paths.agents, label: 'Go to agents' },
    },
    agentStep(facts.agents),
    {
      id: 'platform',
      title: 'Register your Proxmox platform',
      done: linkedPlatforms.length > 0,
      detail:
        linkedPlatforms.length > 0
          ? `${count(linkedPlatforms.length, 'platform is', 'platforms are')} linked to an agent (${linkedPlatforms
              .map((p) => p.name)
              .join(', ')}).`
          : facts.platforms.length > 0
            ? 'Link the platform to your agent.'
            : 'Add your Proxmox API endpoint and the agent that serves it.',
      link: { to: paths.platformsNodes, label: 'Go to platforms and nodes' },
    },
    nodeStep(facts.nodes),
    ipamStep(facts.networks, facts.prefixes),
    {
      id: 'cloud-init',
      title: 'Create a cloud-init template',
      done: ownCloudInit.length > 0,
      detail:
        ownCloudInit.length > 0
          ? `${count(ownCloudInit.length, 'template', 'templates')}: ${ownCloudInit.map((t) => t.name).join(', ')}.`
          : 'Copy a seed (Ubuntu or Debian) and adapt it to your images.',
      link: { to: paths.cloudInitTemplates, label: 'Go to cloud-init templates' },
    },
    {
      id: 'vm-templates',
      title: 'Register VM templates',
      done: facts.vmTemplates.length > 0,
      detail:
        facts.vmTemplates.length > 0
          ? `${count(facts.vmTemplates.length, 'template', 'templates')} on ${count(
              new Set(facts.vmTemplates.map((t) => t.nodeId)).size,
              'node',
              'nodes',
            )}.`
          : 'Register the VMID of each Proxmox template image, per node and distro.',
      link: { to: paths.vmTemplates, label: 'Go to VM templates' },
    },
    {
      id: 'plans',
      title: 'Create plans',
      done: activePlans.length > 0,
      detail:
        activePlans.length > 0
          ? `${count(activePlans.length, 'plan', 'plans')}, ${activePlans.filter((p) => p.isPublic).length} public.`
          : 'A plan is a VM size with its price, region and nodes.',
      link: { to: paths.plans, label: 'Go to plans' },
    },
    preflightStep(activePlans, facts.preflight),
  ];
}
