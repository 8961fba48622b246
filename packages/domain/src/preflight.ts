import type { Distro } from './distro.js';
import {
  CAPACITY_RESOURCES,
  nodeCapacityFit,
  requestedAmounts,
  type CapacityProblem,
  type NodeCapacityState,
} from './node-capacity.js';
import type { NodeComputeType } from './node-settings.js';

/**
 * Preflight: whether a plan can be sold, checked along every path an order would take, agent → platform →
 * node. A plan is marketplace-ready when its own checks pass and at least one node passes every check of
 * its chain: then an order placed now has somewhere to go. Pure: the control plane gathers the facts.
 */

/** Every check preflight makes; a check's code never changes meaning. */
export const PREFLIGHT_CHECK_CODES = [
  'PLAN_PRICED',
  'PLAN_PUBLIC',
  'PLAN_PROVIDER_VERIFIED',
  'PLAN_HAS_NODES',
  'AGENT_LINKED',
  'AGENT_PROVISIONED',
  'AGENT_PEERED',
  'PLATFORM_ONLINE',
  'NODE_ONLINE',
  'NODE_NOT_IN_MAINTENANCE',
  'NODE_INVENTORY_SYNCED',
  'NODE_COMPUTE_TYPE',
  'NODE_PLAN_FITS',
  'NODE_CAPACITY_LEFT',
  'NODE_VM_TEMPLATES',
  'NODE_ON_PROXMOX',
  'NODE_TEMPLATES_ON_PROXMOX',
  'NODE_CLOUD_INIT',
  'NODE_NETWORK',
  'NODE_FREE_IPV4',
  'NODE_FREE_IPV6',
  'NODE_STORAGE_HEADROOM',
] as const;
export type PreflightCheckCode = (typeof PREFLIGHT_CHECK_CODES)[number];

export interface PreflightCheck {
  /** A `PreflightCheckCode`; a sub-check adds what it is about (`NODE_CAPACITY_LEFT_MEMORY`). */
  readonly code: string;
  readonly passed: boolean;
  /** One sentence a provider can act on. */
  readonly note: string;
  readonly subChecks: readonly PreflightCheck[];
}

export interface PreflightPlanFacts {
  readonly id: string;
  readonly code: string;
  readonly name: string;
  readonly vcpus: number;
  readonly ramGb: number;
  readonly diskGb: number;
  /** The compute type the plan's category needs (dedicated plans on dedicated nodes). */
  readonly nodeComputeType: NodeComputeType;
  readonly isPublic: boolean;
  /** Staff have reviewed the provider's organisation. */
  readonly providerVerified: boolean;
  /** The plan's prices' amounts, as decimal strings. */
  readonly priceAmounts: readonly string[];
  /** Where the plan sells, in the provider's order; each label like `Frankfurt, Germany`. */
  readonly regions: readonly { readonly id: string; readonly label: string }[];
}

export interface PreflightAgentFacts {
  readonly id: string;
  readonly name: string;
  readonly provisioned: boolean;
  readonly inboundPeeringState: string;
  readonly serviceStatus: string;
}

export interface PreflightPlatformFacts {
  readonly id: string;
  readonly name: string;
  readonly serviceStatus: string;
  /** Metrics have reported on the platform at least once; until then its agent's status stands in. */
  readonly metricsReported: boolean;
  /** Undefined when the platform is linked to no agent. */
  readonly agent: PreflightAgentFacts | undefined;
}

export interface PreflightTemplateFacts {
  readonly name: string;
  readonly distro: Distro;
  /** The Proxmox VMID registered for the template. */
  readonly templateVmid: number;
  readonly cloudInitTemplateName: string;
  /** Why the linked cloud-init template would not compile for a VM of this node; empty when it would. */
  readonly cloudInitProblems: readonly string[];
}

export interface PreflightNetworkFacts {
  readonly name: string;
  readonly freeIpv4: bigint;
  /** Undefined when the network has no IPv6 prefix (VMs there get no IPv6, which is no failure). */
  readonly freeIpv6: bigint | undefined;
}

/**
 * What the platform's Proxmox reported (its agent's inventory): whether it has this node and which
 * template VMIDs are on it; or, before any report, why there is none.
 */
export type PreflightProxmoxFacts =
  | {
      readonly reported: true;
      readonly nodeNames: readonly string[];
      /** Undefined when Proxmox has no node of this name. */
      readonly node: { readonly templateVmids: readonly number[] } | undefined;
    }
  | { readonly reported: false; readonly why: string };

export interface PreflightNodeFacts {
  readonly id: string;
  readonly name: string;
  /** The node takes the plan's orders in this region. */
  readonly regionId: string;
  readonly serviceStatus: string;
  readonly maintenanceMode: boolean;
  /** Physical amounts are zero until the inventory sync reports them; `sold` is what active VMs hold. */
  readonly capacity: NodeCapacityState;
  readonly vmStorage: {
    readonly storageId: string;
    /** Undefined when the inventory does not list the pool new VM disks go to. */
    readonly pool: { readonly totalBytes: bigint; readonly usedBytes: bigint } | undefined;
  };
  readonly templates: readonly PreflightTemplateFacts[];
  readonly network: PreflightNetworkFacts | undefined;
  readonly platform: PreflightPlatformFacts;
  readonly proxmox: PreflightProxmoxFacts;
}

/** One agent → platform → node chain: the path an order placed on that node takes. */
export interface PreflightInfrastructureEntry {
  readonly passed: boolean;
  readonly agent: {
    readonly id: string | null;
    readonly name: string;
    readonly checks: readonly PreflightCheck[];
    readonly platform: {
      readonly id: string;
      readonly name: string;
      readonly checks: readonly PreflightCheck[];
      readonly node: {
        readonly id: string;
        readonly name: string;
        readonly checks: readonly PreflightCheck[];
      };
    };
  };
}

export interface PreflightResult {
  readonly planId: string;
  readonly planCode: string;
  readonly planName: string;
  readonly marketplaceReady: boolean;
  readonly summaryNote: string;
  /** Every failing check, as `where: note`. */
  readonly summaryIssues: readonly string[];
  /**
   * What does not stop a sale but is worth a look, as `where: note`: a node without a template for a
   * distro other nodes of the plan offer takes no order for that distro.
   */
  readonly summaryWarnings: readonly string[];
  readonly regionLabels: readonly string[];
  /**
   * Each region the plan sells in, ready when the plan's checks pass and a node there passes every check:
   * the marketplace lists the plan in the ready ones. `marketplaceReady` is whether one is.
   */
  readonly regions: readonly PreflightRegionResult[];
  readonly planChecks: readonly PreflightCheck[];
  readonly infrastructure: readonly PreflightInfrastructureEntry[];
}

interface PreflightRegionResult {
  readonly regionId: string;
  readonly regionLabel: string;
  readonly marketplaceReady: boolean;
  /** Like the result's summary note, for this region's nodes. */
  readonly summaryNote: string;
}

const BYTES_PER_GIB = 1024n ** 3n;
const ONLINE = 'SERVICE_STATUS_ONLINE';
const PEERING_READY = 'INBOUND_PEERING_STATE_READY';

function check(
  code: PreflightCheckCode,
  passed: boolean,
  note: string,
  subChecks: readonly PreflightCheck[] = [],
): PreflightCheck {
  return { code, passed, note, subChecks };
}

function allPassed(checks: readonly PreflightCheck[]): boolean {
  return checks.every((c) => c.passed);
}

export function evaluatePreflight(
  plan: PreflightPlanFacts,
  nodes: readonly PreflightNodeFacts[],
): PreflightResult {
  const planChecks = planChecksOf(plan, nodes.length);
  const offered = offeredDistros(nodes);
  const infrastructure = nodes.map((node) => infrastructureEntry(plan, node, offered));
  const regions = plan.regions.map((region): PreflightRegionResult => {
    const inRegion = infrastructure.filter((_, i) => nodes[i]?.regionId === region.id);
    const passingHere = inRegion.filter((e) => e.passed).length;
    const readyHere = allPassed(planChecks) && passingHere > 0;
    return {
      regionId: region.id,
      regionLabel: region.label,
      marketplaceReady: readyHere,
      summaryNote: summaryNoteOf(readyHere, passingHere, inRegion.length, planChecks),
    };
  });
  const ready = regions.some((r) => r.marketplaceReady);
  const summaryIssues = [
    ...planChecks.filter((c) => !c.passed).map((c) => `plan ${plan.code}: ${c.note}`),
    ...infrastructure.flatMap(issuesOf),
  ];
  const summaryWarnings = nodes.flatMap((node) => distroWarningsOf(node, offered));
  const passing = infrastructure.filter((e) => e.passed).length;
  return {
    planId: plan.id,
    planCode: plan.code,
    planName: plan.name,
    marketplaceReady: ready,
    summaryNote: summaryNoteOf(ready, passing, nodes.length, planChecks),
    summaryIssues,
    summaryWarnings,
    regionLabels: plan.regions.map((r) => r.label),
    regions,
    planChecks,
    infrastructure,
  };
}

function summaryNoteOf(
  ready: boolean,
  passing: number,
  total: number,
  planChecks: readonly PreflightCheck[],
): string {
  const nodes = `${String(passing)} of ${String(total)} node${total === 1 ? '' : 's'} can take an order now`;
  if (ready) return `Ready for the marketplace: ${nodes}.`;
  if (!allPassed(planChecks)) return `Not ready: the plan itself fails a check; ${nodes}.`;
  return `Not ready: no node passes every check (${nodes}).`;
}

function planChecksOf(plan: PreflightPlanFacts, nodeCount: number): PreflightCheck[] {
  const priced = plan.priceAmounts.some((a) => Number(a) > 0);
  return [
    check(
      'PLAN_PRICED',
      priced,
      priced
        ? 'The plan has a price above zero.'
        : 'Every price of the plan is zero; set a price to sell it.',
    ),
    check(
      'PLAN_PUBLIC',
      plan.isPublic,
      plan.isPublic
        ? 'The plan is public.'
        : 'The plan is private: the marketplace does not list it, and customers cannot order it.',
    ),
    check(
      'PLAN_PROVIDER_VERIFIED',
      plan.providerVerified,
      plan.providerVerified
        ? 'Your organisation is verified.'
        : 'Your organisation is waiting for verification by NodeRings staff.',
    ),
    check(
      'PLAN_HAS_NODES',
      nodeCount > 0,
      nodeCount > 0
        ? `The plan may be placed on ${String(nodeCount)} node${nodeCount === 1 ? '' : 's'}.`
        : 'The plan has no nodes to be placed on; assign at least one.',
    ),
  ];
}

/**
 * What a customer may choose: every distro some node of the plan has a template for. An order for one is
 * placed only on the nodes that have its template, so nodes may differ (a new template is tried on one
 * node first): a warning, not a failure.
 */
function offeredDistros(nodes: readonly PreflightNodeFacts[]): Distro[] {
  return [...new Set(nodes.flatMap((n) => n.templates.map((t) => t.distro)))].sort();
}

function infrastructureEntry(
  plan: PreflightPlanFacts,
  node: PreflightNodeFacts,
  offered: readonly Distro[],
): PreflightInfrastructureEntry {
  const { platform } = node;
  const agentChecks = agentChecksOf(platform);
  const platformChecks = [platformOnline(platform)];
  const nodeChecks = nodeChecksOf(plan, node, offered);
  return {
    passed: allPassed(agentChecks) && allPassed(platformChecks) && allPassed(nodeChecks),
    agent: {
      id: platform.agent?.id ?? null,
      name: platform.agent?.name ?? '',
      checks: agentChecks,
      platform: {
        id: platform.id,
        name: platform.name,
        checks: platformChecks,
        node: { id: node.id, name: node.name, checks: nodeChecks },
      },
    },
  };
}

function agentChecksOf(platform: PreflightPlatformFacts): PreflightCheck[] {
  const { agent } = platform;
  if (agent === undefined)
    return [
      check(
        'AGENT_LINKED',
        false,
        `Platform ${platform.name} is linked to no agent; orders reach Proxmox only through one.`,
      ),
    ];
  return [
    check('AGENT_LINKED', true, `Platform ${platform.name} is linked to agent ${agent.name}.`),
    check(
      'AGENT_PROVISIONED',
      agent.provisioned,
      agent.provisioned
        ? 'The agent cluster is installed.'
        : 'The agent cluster is not installed yet; run the install command on its VM.',
    ),
    check(
      'AGENT_PEERED',
      agent.inboundPeeringState === PEERING_READY,
      agent.inboundPeeringState === PEERING_READY
        ? 'The control plane reaches the agent cluster.'
        : `Inbound peering is ${agent.inboundPeeringState}; upload the agent's kubeconfig and check it.`,
    ),
  ];
}

/** From metrics once the platform has reported; before its first report, from its agent's status. */
function platformOnline(platform: PreflightPlatformFacts): PreflightCheck {
  if (platform.metricsReported)
    return check(
      'PLATFORM_ONLINE',
      platform.serviceStatus === ONLINE,
      platform.serviceStatus === ONLINE
        ? 'Every Proxmox host behind the endpoint reports pve_up = 1.'
        : `The platform is ${platform.serviceStatus}: not every host behind the endpoint reports pve_up = 1.`,
    );
  const agentOnline = platform.agent?.serviceStatus === ONLINE;
  return check(
    'PLATFORM_ONLINE',
    agentOnline,
    agentOnline
      ? 'No metrics from the platform yet; its agent is online.'
      : 'No metrics from the platform yet, and its agent is not online.',
  );
}

function nodeChecksOf(
  plan: PreflightPlanFacts,
  node: PreflightNodeFacts,
  offered: readonly Distro[],
): PreflightCheck[] {
  return [
    check(
      'NODE_ONLINE',
      node.serviceStatus === ONLINE,
      node.serviceStatus === ONLINE ? 'The node is online.' : `The node is ${node.serviceStatus}.`,
    ),
    check(
      'NODE_NOT_IN_MAINTENANCE',
      !node.maintenanceMode,
      node.maintenanceMode
        ? 'The node is in maintenance mode: it takes no new VMs.'
        : 'The node is not in maintenance.',
    ),
    inventorySynced(node),
    computeTypeCheck(plan, node),
    ...capacityChecks(plan, node),
    templatesCheck(node, offered),
    ...proxmoxChecks(node),
    cloudInitCheck(node),
    ...networkChecks(node),
    storageHeadroom(plan, node),
  ];
}

function inventorySynced(node: PreflightNodeFacts): PreflightCheck {
  const { physical } = node.capacity;
  const missing = [
    physical.cpu <= 0n ? 'CPU' : undefined,
    physical.memory <= 0n ? 'memory' : undefined,
    node.vmStorage.pool === undefined ? `the storage ${node.vmStorage.storageId}` : undefined,
  ].filter((m) => m !== undefined);
  return check(
    'NODE_INVENTORY_SYNCED',
    missing.length === 0,
    missing.length === 0
      ? 'CPU, memory and VM storage are synced from Proxmox.'
      : `Not synced from Proxmox yet: ${missing.join(', ')}.`,
  );
}

function computeTypeCheck(plan: PreflightPlanFacts, node: PreflightNodeFacts): PreflightCheck {
  const fits = node.capacity.computeType === plan.nodeComputeType;
  return check(
    'NODE_COMPUTE_TYPE',
    fits,
    fits
      ? `The node's compute type is ${node.capacity.computeType}.`
      : `The plan needs a ${plan.nodeComputeType} node; this one is ${node.capacity.computeType}.`,
  );
}

/** The capacity rule (node-capacity.ts) split in two: can one VM ever fit, and does one more fit now. */
function capacityChecks(plan: PreflightPlanFacts, node: PreflightNodeFacts): PreflightCheck[] {
  const fit = nodeCapacityFit(node.capacity, requestedAmounts(plan));
  const shortfalls = fit.fits ? [] : fit.shortfalls;
  const perResource = (code: string, problems: readonly CapacityProblem[]) =>
    CAPACITY_RESOURCES.map((resource) => {
      const shortfall = shortfalls.find((s) => s.resource === resource && problems.includes(s.problem));
      return {
        code: `${code}_${resource.toUpperCase()}`,
        passed: shortfall === undefined,
        note: shortfall?.note ?? `${resource}: fits`,
        subChecks: [],
      };
    });
  const physical = perResource('NODE_PLAN_FITS', ['CAPACITY_UNREPORTED', 'CAPACITY_EXCEEDS_PHYSICAL']);
  const left = perResource('NODE_CAPACITY_LEFT', ['CAPACITY_OVERSOLD']);
  const fitsPhysical = allPassed(physical);
  const leftNote = !fitsPhysical
    ? 'Nothing can be sold on the node before the plan fits it.'
    : allPassed(left)
      ? 'One more VM of the plan fits under the overallocation limits.'
      : 'The node has sold what its overallocation allows.';
  return [
    check(
      'NODE_PLAN_FITS',
      fitsPhysical,
      fitsPhysical
        ? "One VM of the plan fits within the node's physical capacity."
        : 'The plan does not fit the node (overallocation sells more in total, never a bigger VM).',
      physical,
    ),
    check('NODE_CAPACITY_LEFT', fitsPhysical && allPassed(left), leftNote, left),
  ];
}

/** The node's name and its templates' VMIDs, checked against what Proxmox itself reported. */
function proxmoxChecks(node: PreflightNodeFacts): PreflightCheck[] {
  const { proxmox } = node;
  if (!proxmox.reported) {
    const unchecked = `Not checked: Proxmox has not reported its nodes and templates yet (${proxmox.why}).`;
    return [check('NODE_ON_PROXMOX', false, unchecked), check('NODE_TEMPLATES_ON_PROXMOX', false, unchecked)];
  }
  const names = proxmox.nodeNames.length === 0 ? 'none' : proxmox.nodeNames.join(', ');
  if (proxmox.node === undefined) {
    return [
      check(
        'NODE_ON_PROXMOX',
        false,
        `Proxmox has no node ${node.name}; its nodes: ${names}. Rename the node to the one it is.`,
      ),
      check('NODE_TEMPLATES_ON_PROXMOX', false, `Not checked: Proxmox has no node ${node.name}.`),
    ];
  }
  const onNode = proxmox.node.templateVmids;
  const there = onNode.length === 0 ? 'none' : onNode.join(', ');
  const subChecks = node.templates.map((t) =>
    check(
      'NODE_TEMPLATES_ON_PROXMOX',
      onNode.includes(t.templateVmid),
      onNode.includes(t.templateVmid)
        ? `${t.name}: VMID ${t.templateVmid} is a template on ${node.name}.`
        : `${t.name}: VMID ${t.templateVmid} is not a template on ${node.name}; templates there: ${there}.`,
    ),
  );
  const passed = allPassed(subChecks);
  return [
    check('NODE_ON_PROXMOX', true, `Proxmox has node ${node.name}.`),
    check(
      'NODE_TEMPLATES_ON_PROXMOX',
      passed,
      passed
        ? `Every registered template is a template on ${node.name} in Proxmox.`
        : `A registered VMID is not a template on ${node.name} in Proxmox.`,
      subChecks,
    ),
  ];
}

function templatesCheck(node: PreflightNodeFacts, offered: readonly Distro[]): PreflightCheck {
  const missing = missingDistros(node, offered);
  const subChecks = offered.map((distro) =>
    check(
      'NODE_VM_TEMPLATES',
      !missing.includes(distro),
      missing.includes(distro)
        ? `${distro}: no template on this node; orders for it go to the plan's other nodes.`
        : `${distro}: template registered.`,
    ),
  );
  const has = offered.filter((d) => !missing.includes(d));
  const note =
    node.templates.length === 0
      ? 'The node has no VM template; register one per distro you offer.'
      : missing.length > 0
        ? `Templates for ${has.join(', ')}; orders for ${missing.join(', ')} go to the plan's other nodes.`
        : `A template for each offered distro (${offered.join(', ')}).`;
  return check('NODE_VM_TEMPLATES', node.templates.length > 0, note, subChecks);
}

/** The distros other nodes of the plan offer that this node has no template for. */
function missingDistros(node: PreflightNodeFacts, offered: readonly Distro[]): Distro[] {
  const has = new Set(node.templates.map((t) => t.distro));
  return offered.filter((d) => !has.has(d));
}

/** A node with templates, but not for every offered distro; one with none fails its check instead. */
function distroWarningsOf(node: PreflightNodeFacts, offered: readonly Distro[]): string[] {
  const missing = missingDistros(node, offered);
  if (node.templates.length === 0 || missing.length === 0) return [];
  return [
    `node ${node.name}: no template for ${missing.join(', ')}; orders for it go to the plan's other nodes.`,
  ];
}

function cloudInitCheck(node: PreflightNodeFacts): PreflightCheck {
  const subChecks = node.templates.map((t) =>
    check(
      'NODE_CLOUD_INIT',
      t.cloudInitProblems.length === 0,
      t.cloudInitProblems.length === 0
        ? `${t.name}: cloud-init template ${t.cloudInitTemplateName} compiles.`
        : `${t.name}: cloud-init template ${t.cloudInitTemplateName} does not compile: ${t.cloudInitProblems.join('; ')}`,
    ),
  );
  const passed = node.templates.length > 0 && allPassed(subChecks);
  const note =
    node.templates.length === 0
      ? 'No VM template, so no cloud-init template is linked.'
      : passed
        ? "Every template's cloud-init template compiles for this node's VMs."
        : 'A linked cloud-init template does not compile for this node’s VMs.';
  return check('NODE_CLOUD_INIT', passed, note, subChecks);
}

function networkChecks(node: PreflightNodeFacts): PreflightCheck[] {
  const { network } = node;
  if (network === undefined)
    return [check('NODE_NETWORK', false, 'The node has no IPAM network; assign one.')];
  const checks = [
    check('NODE_NETWORK', true, `The node is in network ${network.name}.`),
    check(
      'NODE_FREE_IPV4',
      network.freeIpv4 > 0n,
      network.freeIpv4 > 0n
        ? `${network.freeIpv4.toString()} IPv4 addresses free in ${network.name}.`
        : `No free IPv4 address in ${network.name}; add a prefix or release addresses.`,
    ),
  ];
  if (network.freeIpv6 !== undefined)
    checks.push(
      check(
        'NODE_FREE_IPV6',
        network.freeIpv6 > 0n,
        network.freeIpv6 > 0n
          ? `IPv6 offered, ${network.freeIpv6.toString()} assignments free in ${network.name}.`
          : `${network.name} offers IPv6 but has no free assignment left.`,
      ),
    );
  return checks;
}

/** The pool new disks go to must hold one more disk of the plan, whatever overallocation allows. */
function storageHeadroom(plan: PreflightPlanFacts, node: PreflightNodeFacts): PreflightCheck {
  const { storageId, pool } = node.vmStorage;
  if (pool === undefined)
    return check('NODE_STORAGE_HEADROOM', false, `The storage ${storageId} is not reported by Proxmox.`);
  const free = pool.totalBytes - pool.usedBytes;
  const needed = BigInt(plan.diskGb) * BYTES_PER_GIB;
  const passed = free >= needed;
  return check(
    'NODE_STORAGE_HEADROOM',
    passed,
    passed
      ? `${gib(free)} GiB free on ${storageId}.`
      : `${gib(free)} GiB free on ${storageId}, less than the plan's ${String(plan.diskGb)} GiB disk.`,
  );
}

function gib(bytes: bigint): string {
  const tenths = ((bytes < 0n ? 0n : bytes) * 10n) / BYTES_PER_GIB;
  return `${(tenths / 10n).toString()}.${(tenths % 10n).toString()}`;
}

function issuesOf(entry: PreflightInfrastructureEntry): string[] {
  const { agent } = entry;
  const { platform } = agent;
  const where = `node ${platform.node.name}`;
  return [
    ...agent.checks.filter((c) => !c.passed).map((c) => `${where} (agent ${agent.name}): ${c.note}`),
    ...platform.checks.filter((c) => !c.passed).map((c) => `${where} (platform ${platform.name}): ${c.note}`),
    ...platform.node.checks.filter((c) => !c.passed).map((c) => `${where}: ${c.note}`),
  ];
}
