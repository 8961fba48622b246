import { describe, expect, it } from 'vitest';

import {
  evaluatePreflight,
  type PreflightCheck,
  type PreflightNodeFacts,
  type PreflightPlanFacts,
  type PreflightResult,
} from './preflight.js';

const GIB = 1024n ** 3n;

const plan: PreflightPlanFacts = {
  id: 'plan-1',
  code: 'SC-GC-2C-4G-40',
  name: 'Small',
  vcpus: 2,
  ramGb: 4,
  diskGb: 40,
  nodeComputeType: 'NODE_COMPUTE_TYPE_SHARED',
  isPublic: true,
  providerVerified: true,
  priceAmounts: ['9.5'],
  regionLabel: 'Frankfurt, Germany',
};

function node(overrides: Partial<PreflightNodeFacts> = {}, name = 'pve1'): PreflightNodeFacts {
  return {
    id: `id-${name}`,
    name,
    serviceStatus: 'SERVICE_STATUS_ONLINE',
    maintenanceMode: false,
    capacity: {
      computeType: 'NODE_COMPUTE_TYPE_SHARED',
      physical: { cpu: 8n, memory: 32n * GIB, disk: 500n * GIB },
      usedByOthers: { cpu: 0n, memory: 0n, disk: 0n },
      sold: { cpu: 0n, memory: 0n, disk: 0n },
      overallocatePercent: { cpu: 100, memory: 100, disk: 100 },
    },
    vmStorage: { storageId: 'local-lvm', pool: { totalBytes: 500n * GIB, usedBytes: 100n * GIB } },
    templates: [
      {
        name: 'ubuntu',
        distro: 'DISTRO_UBUNTU_24_04',
        cloudInitTemplateName: 'ubuntu',
        cloudInitProblems: [],
      },
    ],
    network: { name: 'public', freeIpv4: 10n, freeIpv6: undefined },
    platform: {
      id: 'platform-1',
      name: 'fra',
      serviceStatus: 'SERVICE_STATUS_ONLINE',
      metricsReported: true,
      agent: {
        id: 'agent-1',
        name: 'fra-agent',
        provisioned: true,
        inboundPeeringState: 'INBOUND_PEERING_STATE_READY',
        serviceStatus: 'SERVICE_STATUS_ONLINE',
      },
    },
    ...overrides,
  };
}

function failing(result: PreflightResult): string[] {
  const failed = (checks: readonly PreflightCheck[]) => checks.filter((c) => !c.passed).map((c) => c.code);
  return [
    ...failed(result.planChecks),
    ...result.infrastructure.flatMap((e) => [
      ...failed(e.agent.checks),
      ...failed(e.agent.platform.checks),
      ...failed(e.agent.platform.node.checks),
    ]),
  ];
}

const base = node();
const withPlatform = (p: Partial<PreflightNodeFacts['platform']>) => ({
  platform: { ...base.platform, ...p },
});
const withAgent = (a: Partial<NonNullable<PreflightNodeFacts['platform']['agent']>>) =>
  withPlatform({ agent: { ...(base.platform.agent ?? ({} as never)), ...a } });
const withCapacity = (c: Partial<PreflightNodeFacts['capacity']>) => ({
  capacity: { ...base.capacity, ...c },
});

/** One input changed from a node where everything passes → the checks that must fail, and only those. */
const NODE_TRUTH_TABLE: readonly [string, Partial<PreflightNodeFacts>, readonly string[]][] = [
  ['everything in order', {}, []],
  ['platform linked to no agent', withPlatform({ agent: undefined }), ['AGENT_LINKED']],
  ['agent not installed', withAgent({ provisioned: false }), ['AGENT_PROVISIONED']],
  [
    'agent peering pending',
    withAgent({ inboundPeeringState: 'INBOUND_PEERING_STATE_PENDING' }),
    ['AGENT_PEERED'],
  ],
  [
    'agent peering failed',
    withAgent({ inboundPeeringState: 'INBOUND_PEERING_STATE_FAILED' }),
    ['AGENT_PEERED'],
  ],
  [
    'platform offline by metrics',
    withPlatform({ serviceStatus: 'SERVICE_STATUS_OFFLINE' }),
    ['PLATFORM_ONLINE'],
  ],
  [
    'no metrics yet, agent online',
    withPlatform({ metricsReported: false, serviceStatus: 'SERVICE_STATUS_OFFLINE' }),
    [],
  ],
  [
    'no metrics yet, agent offline',
    {
      platform: {
        ...base.platform,
        metricsReported: false,
        agent: { ...(base.platform.agent ?? ({} as never)), serviceStatus: 'SERVICE_STATUS_OFFLINE' },
      },
    },
    ['PLATFORM_ONLINE'],
  ],
  ['node offline', { serviceStatus: 'SERVICE_STATUS_OFFLINE' }, ['NODE_ONLINE']],
  ['node in maintenance', { maintenanceMode: true }, ['NODE_NOT_IN_MAINTENANCE']],
  [
    'inventory not synced',
    {
      ...withCapacity({ physical: { cpu: 0n, memory: 0n, disk: 0n } }),
      vmStorage: { storageId: 'local-lvm', pool: undefined },
    },
    ['NODE_INVENTORY_SYNCED', 'NODE_PLAN_FITS', 'NODE_CAPACITY_LEFT', 'NODE_STORAGE_HEADROOM'],
  ],
  [
    'dedicated node for a shared plan',
    withCapacity({ computeType: 'NODE_COMPUTE_TYPE_DEDICATED' }),
    ['NODE_COMPUTE_TYPE'],
  ],
  [
    'plan bigger than the node',
    withCapacity({ physical: { cpu: 1n, memory: 32n * GIB, disk: 500n * GIB } }),
    ['NODE_PLAN_FITS', 'NODE_CAPACITY_LEFT'],
  ],
  [
    'node sold out at 100 %',
    withCapacity({ sold: { cpu: 8n, memory: 8n * GIB, disk: 80n * GIB } }),
    ['NODE_CAPACITY_LEFT'],
  ],
  [
    'foreign guests take the memory',
    withCapacity({ usedByOthers: { cpu: 0n, memory: 30n * GIB, disk: 0n } }),
    ['NODE_CAPACITY_LEFT'],
  ],
  ['no template', { templates: [] }, ['NODE_VM_TEMPLATES', 'NODE_CLOUD_INIT']],
  [
    'cloud-init does not compile',
    {
      templates: [
        {
          name: 'ubuntu',
          distro: 'DISTRO_UBUNTU_24_04',
          cloudInitTemplateName: 'ubuntu',
          cloudInitProblems: ['line 3, column 7: unknown secret API_KEY'],
        },
      ],
    },
    ['NODE_CLOUD_INIT'],
  ],
  ['no network', { network: undefined }, ['NODE_NETWORK']],
  ['no free IPv4', { network: { name: 'public', freeIpv4: 0n, freeIpv6: undefined } }, ['NODE_FREE_IPV4']],
  ['IPv6 offered and free', { network: { name: 'public', freeIpv4: 1n, freeIpv6: 5n } }, []],
  [
    'IPv6 offered, none free',
    { network: { name: 'public', freeIpv4: 1n, freeIpv6: 0n } },
    ['NODE_FREE_IPV6'],
  ],
  [
    'storage pool nearly full',
    { vmStorage: { storageId: 'local-lvm', pool: { totalBytes: 500n * GIB, usedBytes: 470n * GIB } } },
    ['NODE_STORAGE_HEADROOM'],
  ],
  [
    'storage pool not reported',
    { vmStorage: { storageId: 'local-lvm', pool: undefined } },
    ['NODE_INVENTORY_SYNCED', 'NODE_STORAGE_HEADROOM'],
  ],
];

describe('preflight', () => {
  it.each(NODE_TRUTH_TABLE)('%s', (_name, overrides, expectedFailures) => {
    const result = evaluatePreflight(plan, [node(overrides)]);
    expect(failing(result).sort()).toEqual([...expectedFailures].sort());
    expect(result.marketplaceReady).toBe(expectedFailures.length === 0);
    expect(result.infrastructure[0]?.passed).toBe(expectedFailures.length === 0);
    expect(result.summaryIssues).toHaveLength(expectedFailures.length);
  });

  const PLAN_TRUTH_TABLE: readonly [string, Partial<PreflightPlanFacts>, string][] = [
    ['every price zero', { priceAmounts: ['0', '0.000000'] }, 'PLAN_PRICED'],
    ['private plan', { isPublic: false }, 'PLAN_PUBLIC'],
    ['provider not verified', { providerVerified: false }, 'PLAN_PROVIDER_VERIFIED'],
  ];

  it.each(PLAN_TRUTH_TABLE)(
    'a plan check fails: %s → not ready, whatever the nodes',
    (_n, overrides, code) => {
      const result = evaluatePreflight({ ...plan, ...overrides }, [node()]);
      expect(failing(result)).toEqual([code]);
      expect(result.marketplaceReady).toBe(false);
      expect(result.infrastructure[0]?.passed).toBe(true);
      expect(result.summaryNote).toMatch(/^Not ready: the plan itself/);
    },
  );

  it('is not ready without nodes', () => {
    const result = evaluatePreflight(plan, []);
    expect(failing(result)).toEqual(['PLAN_HAS_NODES']);
    expect(result.marketplaceReady).toBe(false);
  });

  it('is ready when one node passes every check, and says which do not', () => {
    const result = evaluatePreflight(plan, [node({ maintenanceMode: true }, 'pve1'), node({}, 'pve2')]);
    expect(result.marketplaceReady).toBe(true);
    expect(result.infrastructure.map((e) => e.passed)).toEqual([false, true]);
    expect(result.summaryNote).toBe('Ready for the marketplace: 1 of 2 nodes can take an order now.');
    expect(result.summaryIssues).toEqual([
      'node pve1: The node is in maintenance mode: it takes no new VMs.',
    ]);
  });

  it('warns, without failing, about a node that lacks a distro another node offers', () => {
    const debian = {
      name: 'debian',
      distro: 'DISTRO_DEBIAN_13' as const,
      cloudInitTemplateName: 'debian',
      cloudInitProblems: [],
    };
    const both = node({ templates: [...base.templates, debian] }, 'pve1');
    const result = evaluatePreflight(plan, [both, node({}, 'pve2')]);
    expect(result.infrastructure.map((e) => e.passed)).toEqual([true, true]);
    expect(result.summaryIssues).toEqual([]);
    expect(result.summaryWarnings).toEqual([
      "node pve2: no template for DISTRO_DEBIAN_13; orders for it go to the plan's other nodes.",
    ]);
    const templates = result.infrastructure[1]?.agent.platform.node.checks.find(
      (c) => c.code === 'NODE_VM_TEMPLATES',
    );
    expect(templates?.passed).toBe(true);
    expect(templates?.note).toBe(
      "Templates for DISTRO_UBUNTU_24_04; orders for DISTRO_DEBIAN_13 go to the plan's other nodes.",
    );
    expect(templates?.subChecks.map((c) => [c.note, c.passed])).toEqual([
      ["DISTRO_DEBIAN_13: no template on this node; orders for it go to the plan's other nodes.", false],
      ['DISTRO_UBUNTU_24_04: template registered.', true],
    ]);
  });

  it('names the resource that is sold out, with the numbers', () => {
    const result = evaluatePreflight(plan, [
      node(withCapacity({ sold: { cpu: 2n, memory: 30n * GIB, disk: 0n } })),
    ]);
    const left = result.infrastructure[0]?.agent.platform.node.checks.find(
      (c) => c.code === 'NODE_CAPACITY_LEFT',
    );
    expect(left?.subChecks.filter((c) => !c.passed).map((c) => c.code)).toEqual([
      'NODE_CAPACITY_LEFT_MEMORY',
    ]);
    expect(left?.subChecks.find((c) => !c.passed)?.note).toContain(
      'memory: 30.0 GiB of 32.0 GiB sellable is sold',
    );
  });

  it('lets overallocation sell more in total but never a bigger VM', () => {
    const oversold = withCapacity({
      sold: { cpu: 8n, memory: 0n, disk: 0n },
      overallocatePercent: { cpu: 200, memory: 100, disk: 100 },
    });
    expect(evaluatePreflight(plan, [node(oversold)]).marketplaceReady).toBe(true);
    const big = { ...plan, vcpus: 9 };
    const result = evaluatePreflight(big, [
      node(withCapacity({ overallocatePercent: { cpu: 400, memory: 100, disk: 100 } })),
    ]);
    expect(failing(result)).toEqual(['NODE_PLAN_FITS', 'NODE_CAPACITY_LEFT']);
  });

  it('does not overallocate the CPU of a dedicated node', () => {
    const dedicatedPlan = { ...plan, nodeComputeType: 'NODE_COMPUTE_TYPE_DEDICATED' as const };
    const dedicated = withCapacity({
      computeType: 'NODE_COMPUTE_TYPE_DEDICATED',
      sold: { cpu: 7n, memory: 0n, disk: 0n },
      overallocatePercent: { cpu: 300, memory: 100, disk: 100 },
    });
    expect(failing(evaluatePreflight(dedicatedPlan, [node(dedicated)]))).toEqual(['NODE_CAPACITY_LEFT']);
  });
});
