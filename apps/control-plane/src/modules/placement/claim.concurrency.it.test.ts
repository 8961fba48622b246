import { randomUUID } from 'node:crypto';

import {
  CAPACITY_RESOURCES,
  nodeCapacityFit,
  requestedAmounts,
  sellableAmount,
  type NodeCapacityState,
} from '@noderings/domain';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type TestControlPlane } from '../../control-plane.test-support.js';
import { createClaimService } from './index.js';
import type { VmClaim } from './claim.repository.js';
import type { ClaimService } from './claim.service.js';
import { PlacementExhaustedError } from './placement-exhausted-error.js';
import {
  addNetwork,
  addNode,
  addPlan,
  createSeller,
  reportNode,
  type NodeReport,
  type Seller,
} from './placement.test-support.js';

const GIB = 1024n ** 3n;

interface NodeSetup {
  readonly report: NodeReport;
  readonly percent: { readonly cpu: number; readonly memory: number; readonly disk: number };
  readonly vmidSeed?: number;
}

type Outcome = { readonly claim: VmClaim } | { readonly error: unknown };

/** The capacity a node was given, as the rule sees it: the test's own account, not the service's. */
function stateOf(setup: NodeSetup, sold: NodeCapacityState['sold']): NodeCapacityState {
  const r = setup.report;
  return {
    computeType: 'NODE_COMPUTE_TYPE_SHARED',
    physical: {
      cpu: BigInt(r.cpuCores),
      memory: BigInt(r.memoryGib) * GIB,
      disk: BigInt(r.storageGib) * GIB,
    },
    usedByOthers: {
      cpu: BigInt(r.nonNrCpuCores ?? 0),
      memory: BigInt(r.nonNrMemoryGib ?? 0) * GIB,
      disk: BigInt(r.nonNrDiskGib ?? 0) * GIB,
    },
    sold,
    overallocatePercent: setup.percent,
  };
}

/** Every claim in its own transaction, all started at once. */
function claimAll(
  service: ClaimService,
  clientOrganizationId: string,
  planIds: readonly string[],
): Promise<Outcome[]> {
  return Promise.all(
    planIds.map((planId) =>
      service.claim({ clientOrganizationId, planId, claimId: randomUUID() }).then(
        (claim) => ({ claim }),
        (error: unknown) => ({ error }),
      ),
    ),
  );
}

function claimsOf(outcomes: readonly Outcome[]): VmClaim[] {
  return outcomes.flatMap((o) => ('claim' in o ? [o.claim] : []));
}

/** Only "no node can take it" is an acceptable failure: no aborts, no collisions, nothing else. */
function expectOnlyRefusals(outcomes: readonly Outcome[]): void {
  const others = outcomes.flatMap((o) =>
    'error' in o && !(o.error instanceof PlacementExhaustedError) ? [o.error] : [],
  );
  expect(others).toEqual([]);
}

describe('claims racing on PostgreSQL', () => {
  let t: TestControlPlane;
  let service: ClaimService;
  let clientId: string;
  beforeAll(async () => {
    t = await startTestControlPlane('postgres');
    service = createClaimService(t.cp.db);
    clientId = (await t.register('ORGANIZATION_TYPE_CLIENT')).organizationId;
  });
  afterAll(() => t.close());

  async function addNodes(seller: Seller, setups: readonly NodeSetup[]): Promise<string[]> {
    const ids: string[] = [];
    // One after another, so that their age (the stable order) is the order given.
    for (const s of setups) {
      ids.push(
        await addNode(t, seller, s.report, {
          cpuOverallocatePercent: s.percent.cpu,
          memoryOverallocatePercent: s.percent.memory,
          storageOverallocatePercent: s.percent.disk,
          vmidSeed: s.vmidSeed ?? 1000,
        }),
      );
    }
    return ids;
  }

  /** DESIGN §4 invariant 1 over every active claim in the database, and invariant 2 for these nodes. */
  async function expectInvariants(nodes: readonly { id: string; setup: NodeSetup }[]): Promise<void> {
    const duplicates = await sql<{ what: string }>`
      SELECT 'vmid ' || platform_id || '/' || vmid AS what FROM vm_claims WHERE status = 'ACTIVE'
        GROUP BY platform_id, vmid HAVING count(*) > 1
      UNION ALL SELECT 'mac ' || mac_address FROM vm_claims WHERE status = 'ACTIVE'
        GROUP BY mac_address HAVING count(*) > 1
      UNION ALL SELECT 'address ' || a.prefix_id || '/' || a.address FROM vm_claims c
        JOIN ip_allocations a ON a.id IN (c.ipv4_allocation_id, c.ipv6_allocation_id)
        WHERE c.status = 'ACTIVE' GROUP BY a.prefix_id, a.address HAVING count(*) > 1
      UNION ALL SELECT 'inactive address of ' || c.id FROM vm_claims c
        JOIN ip_allocations a ON a.id IN (c.ipv4_allocation_id, c.ipv6_allocation_id)
        WHERE c.status = 'ACTIVE' AND a.status <> 'IP_ALLOCATION_STATUS_ACTIVE'
      UNION ALL SELECT 'foreign vmid ' || c.vmid FROM vm_claims c JOIN nodes n ON n.platform_id = c.platform_id
        WHERE c.status = 'ACTIVE' AND n.inventory->'foreignVmids' @> to_jsonb(c.vmid)`.execute(t.cp.db);
    expect(duplicates.rows.map((r) => r.what)).toEqual([]);
    for (const { id, setup } of nodes) {
      const sold = await soldOn(id);
      const state = stateOf(setup, sold);
      for (const r of CAPACITY_RESOURCES)
        expect(sold[r], `${r} sold on ${id}`).toBeLessThanOrEqual(sellableAmount(state, r));
    }
  }

  async function soldOn(nodeId: string): Promise<NodeCapacityState['sold']> {
    const row = await t.cp.db
      .selectFrom('vm_claims')
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<string>('vcpus'), sql<string>`0`).as('vcpus'),
        eb.fn.coalesce(eb.fn.sum<string>('ram_gb'), sql<string>`0`).as('ram_gb'),
        eb.fn.coalesce(eb.fn.sum<string>('disk_gb'), sql<string>`0`).as('disk_gb'),
      ])
      .where('node_id', '=', nodeId)
      .where('status', '=', 'ACTIVE')
      .executeTakeFirstOrThrow();
    return requestedAmounts({
      vcpus: Number(row.vcpus),
      ramGb: Number(row.ram_gb),
      diskGb: Number(row.disk_gb),
    });
  }

  it('lets exactly 100 of 500 concurrent claims through when the nodes hold 100 VMs, then reuses released ones', async () => {
    const seller = await createSeller(t, {
      ipv4: {
        cidr: '10.1.0.0/24',
        gateway: '10.1.0.1',
        allocationStrategy: 'ALLOCATION_STRATEGY_FIRST_AVAILABLE',
      },
    });
    // 25 VMs of 2 vCPU, 2 GiB and 20 GiB each, bound by a different resource on each node.
    const setups: NodeSetup[] = [
      {
        report: { cpuCores: 10, memoryGib: 64, storageGib: 1000 },
        percent: { cpu: 500, memory: 100, disk: 100 },
      },
      {
        report: { cpuCores: 64, memoryGib: 50, storageGib: 1000 },
        percent: { cpu: 100, memory: 100, disk: 100 },
      },
      {
        report: { cpuCores: 64, memoryGib: 64, storageGib: 500 },
        percent: { cpu: 100, memory: 100, disk: 100 },
      },
      {
        report: {
          cpuCores: 64,
          memoryGib: 60,
          storageGib: 1000,
          nonNrMemoryGib: 20,
          foreignVmids: [1003, 1050],
        },
        percent: { cpu: 100, memory: 125, disk: 100 },
      },
    ];
    const nodeIds = await addNodes(seller, setups);
    const nodes = setups.map((setup, i) => ({ id: nodeIds[i] ?? '', setup }));
    const planId = await addPlan(t, seller, nodeIds, { vcpus: 2, ramGb: 2, diskGb: 20 });
    await t.call('PUT', '/v1/node-placement-policy', {
      as: seller.provider,
      body: { defaultStrategy: 'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN' },
    });

    const outcomes = await claimAll(
      service,
      clientId,
      Array.from({ length: 500 }, () => planId),
    );
    expectOnlyRefusals(outcomes);
    const claimed = claimsOf(outcomes);
    expect(claimed).toHaveLength(100);
    for (const id of nodeIds) expect(claimed.filter((c) => c.nodeId === id)).toHaveLength(25);
    await expectInvariants(nodes);

    // Released claims give back exactly their capacity, VMIDs, MACs and addresses to the next ones.
    const released = claimed.filter((_, i) => i % 4 === 0);
    await Promise.all(released.map((c) => service.release(c.id)));
    const again = await claimAll(
      service,
      clientId,
      Array.from({ length: 60 }, () => planId),
    );
    expectOnlyRefusals(again);
    const reclaimed = claimsOf(again);
    expect(reclaimed).toHaveLength(released.length);
    const sorted = (values: readonly (string | number | undefined)[]) => [...values].sort();
    expect(sorted(reclaimed.map((c) => c.vmid))).toEqual(sorted(released.map((c) => c.vmid)));
    expect(sorted(reclaimed.map((c) => c.macAddress))).toEqual(sorted(released.map((c) => c.macAddress)));
    expect(sorted(reclaimed.map((c) => c.ipv4?.address))).toEqual(
      sorted(released.map((c) => c.ipv4?.address)),
    );
    await expectInvariants(nodes);
  }, 120_000);

  it('lets exactly 100 of 500 concurrent claims through when the network holds 100 addresses', async () => {
    // A /25 has 126 hosts; less the gateway, 10.2.0.102-103 and 10.2.0.104-127, 100 are left.
    const seller = await createSeller(t, {
      ipv4: {
        cidr: '10.2.0.0/25',
        gateway: '10.2.0.1',
        reservedIps: ['10.2.0.102', '10.2.0.103'],
        reservedPrefixes: ['10.2.0.104/29', '10.2.0.112/28'],
      },
      ipv6: { cidr: 'fd00:2::/112', gateway: 'fd00:2::1', vmAssignmentPrefixLength: 128 },
    });
    const prefixes = await t.call<{ prefixes: { id: string; family: string }[] }>(
      'GET',
      `/v1/ipam/prefixes?filterNetworkId=${seller.networkId}`,
      { as: seller.provider },
    );
    const ipv4Prefix = prefixes.body.prefixes.find((p) => p.family === 'IP_FAMILY_IPV4')?.id ?? '';
    const utilization = await t.call<{ availableCount: string }>(
      'GET',
      `/v1/ipam/prefixes/${ipv4Prefix}/utilization`,
      { as: seller.provider },
    );
    expect(utilization.body.availableCount).toBe('100');
    const roomy: NodeSetup = {
      report: { cpuCores: 512, memoryGib: 4096, storageGib: 100_000 },
      percent: { cpu: 100, memory: 100, disk: 100 },
    };
    const nodeIds = await addNodes(seller, [roomy, roomy]);
    const planId = await addPlan(t, seller, nodeIds, { vcpus: 1, ramGb: 1, diskGb: 10 });

    const outcomes = await claimAll(
      service,
      clientId,
      Array.from({ length: 500 }, () => planId),
    );
    expectOnlyRefusals(outcomes);
    const claimed = claimsOf(outcomes);
    expect(claimed).toHaveLength(100);
    expect(claimed.every((c) => c.ipv6 !== undefined)).toBe(true);
    const refused = outcomes.find((o): o is { error: PlacementExhaustedError } => 'error' in o);
    expect(refused?.error.message).toContain(seller.networkId);
    await expectInvariants(nodeIds.map((id) => ({ id, setup: roomy })));
  }, 120_000);

  it('makes claims on separate nodes of one platform take turns for VMIDs, and all sellers for MACs', async () => {
    const roomy: NodeSetup = {
      report: { cpuCores: 512, memoryGib: 4096, storageGib: 100_000 },
      percent: { cpu: 100, memory: 100, disk: 100 },
    };
    // Two plans on two nodes of one platform with one VMID seed, on networks of their own: their claims
    // share no node lock and no prefix lock.
    const seller = await createSeller(t, { ipv4: { cidr: '10.4.0.0/24', gateway: '10.4.0.1' } });
    const [left = ''] = await addNodes(seller, [roomy]);
    const rightNetwork = await addNetwork(t, seller.provider, {
      ipv4: { cidr: '10.4.1.0/24', gateway: '10.4.1.1' },
    });
    const right = await addNode(t, seller, roomy.report, { vmidSeed: 1000 }, rightNetwork);
    const onLeft = await addPlan(t, seller, [left], { vcpus: 1, ramGb: 1, diskGb: 10 });
    const onRight = await addPlan(t, seller, [right], { vcpus: 1, ramGb: 2, diskGb: 10 });
    // Another provider whose nodes and network also take MACs under Proxmox's prefix.
    const other = await createSeller(t, { ipv4: { cidr: '10.5.0.0/24', gateway: '10.5.0.1' } });
    const [elsewhere = ''] = await addNodes(other, [roomy]);
    const onOther = await addPlan(t, other, [elsewhere]);

    const plans = Array.from({ length: 150 }, (_, i) => [onLeft, onRight, onOther][i % 3] ?? '');
    const outcomes = await claimAll(service, clientId, plans);
    expectOnlyRefusals(outcomes);
    expect(claimsOf(outcomes)).toHaveLength(150);
    await expectInvariants([left, right, elsewhere].map((id) => ({ id, setup: roomy })));
  }, 120_000);

  it('keeps both invariants, and refuses only when no node qualifies, for random plans, overallocations and other guests', async () => {
    const percent = fc.integer({ min: 50, max: 400 });
    const nodeSetup = fc.record({
      report: fc.record({
        cpuCores: fc.integer({ min: 1, max: 16 }),
        memoryGib: fc.integer({ min: 1, max: 48 }),
        storageGib: fc.integer({ min: 10, max: 400 }),
        nonNrCpuCores: fc.nat({ max: 4 }),
        nonNrMemoryGib: fc.nat({ max: 12 }),
        nonNrDiskGib: fc.nat({ max: 80 }),
        foreignVmids: fc.uniqueArray(fc.integer({ min: 1000, max: 1040 }), { maxLength: 6 }),
      }),
      percent: fc.record({ cpu: percent, memory: percent, disk: percent }),
      vmidSeed: fc.integer({ min: 1000, max: 1010 }),
    });
    const spec = fc.record({
      vcpus: fc.integer({ min: 1, max: 4 }),
      ramGb: fc.integer({ min: 1, max: 8 }),
      diskGb: fc.integer({ min: 5, max: 60 }),
      /** Which of the nodes the plan may use (bit i: node i); at least one of them. */
      nodeMask: fc.integer({ min: 1, max: 15 }),
    });
    const scenario = fc.record({
      nodes: fc.array(nodeSetup, { minLength: 1, maxLength: 4 }),
      plans: fc.uniqueArray(spec, {
        minLength: 1,
        maxLength: 2,
        selector: (s) => `${s.vcpus}/${s.ramGb}/${s.diskGb}`,
      }),
      /** Which plan each of the claims is for. */
      picks: fc.array(fc.nat({ max: 1 }), { minLength: 60, maxLength: 60 }),
      prefixLength: fc.integer({ min: 26, max: 28 }),
      strategy: fc.constantFrom(
        'NODE_PLACEMENT_STRATEGY_FIRST_STABLE',
        'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN',
        'NODE_PLACEMENT_STRATEGY_LEAST_ASSIGNED_VMS',
        'NODE_PLACEMENT_STRATEGY_RANDOM',
      ),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ({ nodes: setups, plans: specs, picks, prefixLength, strategy }) => {
        run++;
        const seller = await createSeller(t, {
          ipv4: { cidr: `10.3.${run}.0/${prefixLength}`, gateway: `10.3.${run}.1` },
        });
        // Plans are created before the nodes report, so that a plan may be larger than a node.
        const unreported = setups.map((s) => ({
          ...s,
          report: { cpuCores: 0, memoryGib: 0, storageGib: 0 },
        }));
        const nodeIds = await addNodes(seller, unreported);
        const planIds: string[] = [];
        const nodesOf = (mask: number) => {
          const chosen = nodeIds.filter((_, i) => (mask & (1 << i)) !== 0);
          return chosen.length > 0 ? chosen : nodeIds;
        };
        for (const { nodeMask, ...s } of specs) planIds.push(await addPlan(t, seller, nodesOf(nodeMask), s));
        const nodes = setups.map((setup, i) => ({ id: nodeIds[i] ?? '', setup }));
        for (const n of nodes) await reportNode(t, n.id, n.setup.report);
        await t.call('PUT', '/v1/node-placement-policy', {
          as: seller.provider,
          body: { defaultStrategy: strategy },
        });

        const wanted = picks.map((p) => planIds[p % planIds.length] ?? '');
        const outcomes = await claimAll(service, clientId, wanted);
        expectOnlyRefusals(outcomes);
        await expectInvariants(nodes);
        const claimed = claimsOf(outcomes);
        const addressesLeft = 2 ** (32 - prefixLength) - 3 - claimed.length;
        for (const [p, spec] of specs.entries()) {
          if (!outcomes.some((o, i) => wanted[i] === planIds[p] && 'error' in o)) continue;
          // Capacity only shrank during the run: a node that fits now would have fit when the claim was refused.
          const request = requestedAmounts(spec);
          const planNodes = nodesOf(spec.nodeMask);
          for (const n of nodes.filter((node) => planNodes.includes(node.id))) {
            const fits = nodeCapacityFit(stateOf(n.setup, await soldOn(n.id)), request).fits;
            expect(fits && addressesLeft > 0, `plan ${p} refused while node ${n.id} could take it`).toBe(
              false,
            );
          }
        }
        const [only] = specs;
        if (specs.length === 1 && only !== undefined) {
          // One plan: how many fit does not depend on the order the claims ran in.
          const request = requestedAmounts(only);
          const planNodes = nodesOf(only.nodeMask);
          const slots = nodes
            .filter((n) => planNodes.includes(n.id))
            .reduce((total, n) => {
              const empty = stateOf(n.setup, { cpu: 0n, memory: 0n, disk: 0n });
              if (!CAPACITY_RESOURCES.every((r) => request[r] <= empty.physical[r])) return total;
              return (
                total +
                Number(
                  CAPACITY_RESOURCES.map((r) => sellableAmount(empty, r) / request[r]).reduce((a, b) =>
                    a < b ? a : b,
                  ),
                )
              );
            }, 0);
          expect(claimed).toHaveLength(Math.min(60, slots, 2 ** (32 - prefixLength) - 3));
        }
      }),
      { numRuns: 10, seed: 20261201 },
    );
  }, 300_000);
});
