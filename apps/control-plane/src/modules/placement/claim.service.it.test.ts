import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type TestControlPlane } from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { AllocationRepository, IpAllocationService } from '../ipam/index.js';
import { ClaimRepository, type VmClaim } from './claim.repository.js';
import { ClaimService, type ClaimRequest } from './claim.service.js';
import { PlacementExhaustedError } from './placement-exhausted-error.js';
import { PlacementPolicyRepository } from './placement-policy.repository.js';
import {
  addNetwork,
  addNode,
  addPlan,
  createSeller,
  reportNode,
  type NodeReport,
  type Seller,
} from './placement.test-support.js';

const ROOMY: NodeReport = { cpuCores: 64, memoryGib: 256, storageGib: 4000 };

describe.each(DATABASE_KINDS)('claims on the %s database', (kind) => {
  let t: TestControlPlane;
  let service: ClaimService;
  let clientId: string;
  /** What RANDOM answers next, per test. */
  let nextRandom: (bound: number) => number;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
    service = new ClaimService({
      claims: new ClaimRepository(t.cp.db),
      policies: new PlacementPolicyRepository(t.cp.db),
      addresses: new IpAllocationService({ allocations: new AllocationRepository(t.cp.db) }),
      randomIndex: (bound) => nextRandom(bound),
    });
    clientId = (await t.register('ORGANIZATION_TYPE_CLIENT')).organizationId;
  });
  afterAll(() => t.close());

  function claim(planId: string, extra: Partial<ClaimRequest> = {}): Promise<VmClaim> {
    return service.claim({ clientOrganizationId: clientId, planId, claimId: randomUUID(), ...extra });
  }

  async function refusal(planId: string): Promise<PlacementExhaustedError> {
    const error = await claim(planId).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof PlacementExhaustedError))
      throw new Error(`expected a refusal, got ${String(error)}`);
    return error;
  }

  async function putPolicy(seller: Seller, body: unknown): Promise<void> {
    const response = await t.call('PUT', '/v1/node-placement-policy', { as: seller.provider, body });
    expect(response.status).toBe(200);
  }

  it('takes a node, the plan’s specs, the seed VMID, the first MAC and an address of each family', async () => {
    const seller = await createSeller(t, {
      ipv4: {
        cidr: '192.0.2.0/28',
        gateway: '192.0.2.1',
        allocationStrategy: 'ALLOCATION_STRATEGY_FIRST_AVAILABLE',
      },
      ipv6: { cidr: '2001:db8:7::/48', gateway: '2001:db8:7::1', vmAssignmentPrefixLength: 64 },
    });
    const nodeId = await addNode(t, seller, ROOMY, { vmidSeed: 5000, macAddressPrefix: '02:AA:01' });
    const planId = await addPlan(t, seller, [nodeId], { vcpus: 2, ramGb: 4, diskGb: 40 });
    const claimId = randomUUID();
    const claimed = await service.claim({
      clientOrganizationId: clientId,
      planId,
      regionId: seller.regionId,
      claimId,
    });
    expect(claimed).toMatchObject({
      id: claimId,
      clientOrganizationId: clientId,
      providerOrganizationId: seller.provider.organizationId,
      planId,
      planRevision: 1,
      nodeId,
      platformId: seller.platformId,
      vcpus: 2,
      ramGb: 4,
      diskGb: 40,
      vmid: 5000,
      macAddress: '02:AA:01:00:00:00',
      ipv4: { address: '192.0.2.2', allocatedCidr: '192.0.2.2/28' },
      ipv6: { allocatedCidr: '2001:db8:7:1::/64' },
      status: 'ACTIVE',
    });
    // Claiming the same id again is the same claim, not a second VM.
    expect(await service.claim({ clientOrganizationId: clientId, planId, claimId })).toEqual(
      await service.claim({ clientOrganizationId: clientId, planId, claimId }),
    );
    const withoutIpv6 = await claim(planId, { wantIpv6: false });
    expect(withoutIpv6).toMatchObject({ vmid: 5001, macAddress: '02:AA:01:00:00:01', ipv6: undefined });
    expect(withoutIpv6.ipv4?.address).toBe('192.0.2.3');
  });

  it('moves a claim to another node of the plan with a new VMID and MAC, giving its addresses back first, and never to the node it is on', async () => {
    const seller = await createSeller(t, {
      ipv4: {
        cidr: '192.0.2.64/29',
        gateway: '192.0.2.65',
        allocationStrategy: 'ALLOCATION_STRATEGY_FIRST_AVAILABLE',
      },
    });
    const first = await addNode(t, seller, ROOMY, { vmidSeed: 5000, macAddressPrefix: '02:AA:02' });
    const second = await addNode(t, seller, ROOMY, { vmidSeed: 6000, macAddressPrefix: '02:AA:02' });
    const planId = await addPlan(t, seller, [first, second], { vcpus: 2, ramGb: 4, diskGb: 40 });
    const placed = await claim(planId, { regionId: seller.regionId });
    expect(placed).toMatchObject({ nodeId: first, vmid: 5000, macAddress: '02:AA:02:00:00:00' });
    const request = {
      clientOrganizationId: clientId,
      planId,
      regionId: seller.regionId,
      claimId: placed.id,
      onlyNodeIds: [first, second],
    };
    const moved = await service.moveAnd(request, (_tx, c) => Promise.resolve(c));
    expect(moved).toMatchObject({
      id: placed.id,
      status: 'ACTIVE',
      nodeId: second,
      vmid: 6000,
      macAddress: '02:AA:02:00:00:01',
      // Given back before the new node's network handed one out: the same first free address.
      ipv4: { address: placed.ipv4?.address },
    });
    expect(
      await t.cp.db.selectFrom('vm_claims').selectAll().where('id', '=', placed.id).execute(),
    ).toHaveLength(1);
    const held = await t.cp.db
      .selectFrom('ip_allocations')
      .select('address')
      .where('claim_id', '=', placed.id)
      .where('status', '=', 'IP_ALLOCATION_STATUS_ACTIVE')
      .execute();
    expect(held.map((a) => a.address)).toEqual([placed.ipv4?.address]);
    // The node it is on is never a place to move to: with no other, nothing changes.
    const refused = await service
      .moveAnd({ ...request, onlyNodeIds: [second] }, (_tx, c) => Promise.resolve(c))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(refused).toBeInstanceOf(PlacementExhaustedError);
    const after = await new ClaimRepository(t.cp.db).findById(t.cp.db, placed.id);
    expect(after).toMatchObject({
      nodeId: second,
      vmid: 6000,
      ipv4: { allocationId: moved.ipv4?.allocationId },
    });
    // A released claim does not move.
    await service.release(placed.id);
    await expect(service.moveAnd(request, (_tx, c) => Promise.resolve(c))).rejects.toMatchObject({
      code: 'FAILED_PRECONDITION',
    });
  });

  it('gives back the addresses, MAC, VMID and capacity on release, once, and reuses them', async () => {
    const seller = await createSeller(t, {
      ipv4: {
        cidr: '192.0.2.16/29',
        gateway: '192.0.2.17',
        allocationStrategy: 'ALLOCATION_STRATEGY_FIRST_AVAILABLE',
      },
    });
    // Room for exactly one VM of the plan.
    const nodeId = await addNode(t, seller, { cpuCores: 2, memoryGib: 2, storageGib: 20 });
    const planId = await addPlan(t, seller, [nodeId], { vcpus: 2, ramGb: 2, diskGb: 20 });
    const first = await claim(planId);
    await refusal(planId);
    const released = await service.release(first.id);
    expect(released).toMatchObject({ id: first.id, status: 'RELEASED' });
    expect(released.releasedAt).toBeInstanceOf(Date);
    expect(await service.release(first.id)).toEqual(released);
    const allocations = await t.cp.db
      .selectFrom('ip_allocations')
      .select('status')
      .where('claim_id', '=', first.id)
      .execute();
    expect(allocations.map((a) => a.status)).toEqual(['IP_ALLOCATION_STATUS_RELEASED']);
    const second = await claim(planId);
    expect(second.nodeId).toBe(nodeId);
    expect([second.vmid, second.macAddress, second.ipv4?.address]).toEqual([
      first.vmid,
      first.macAddress,
      first.ipv4?.address,
    ]);
    await expect(service.release(randomUUID())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // A released claim id cannot place another VM.
    await expect(
      service.claim({ clientOrganizationId: clientId, planId, claimId: first.id }),
    ).rejects.toMatchObject({ code: 'FAILED_PRECONDITION' });
  });

  it('sells up to (physical − other guests) × overallocation and refuses the next, naming the resource', async () => {
    const seller = await createSeller(t);
    // CPU: 8 cores at 200 % = 16 vCPU; memory: (40 − 8) GiB at 100 % = 32 GiB; the disk is roomy.
    const nodeId = await addNode(
      t,
      seller,
      { cpuCores: 8, memoryGib: 40, storageGib: 1000, nonNrMemoryGib: 8 },
      { cpuOverallocatePercent: 200 },
    );
    const cpuBound = await addPlan(t, seller, [nodeId], { vcpus: 4, ramGb: 1, diskGb: 10 });
    for (let i = 0; i < 4; i++) await claim(cpuBound);
    const cpuFull = await refusal(cpuBound);
    expect(cpuFull.code).toBe('RESOURCE_EXHAUSTED');
    expect(cpuFull.refusals).toEqual([
      {
        nodeId,
        nodeName: expect.any(String) as unknown,
        reasons: [expect.stringMatching(/^cpu: 16 vCPU of 16 vCPU sellable is sold/) as unknown],
      },
    ]);
    const memoryBound = await addPlan(t, seller, [nodeId], { vcpus: 1, ramGb: 14, diskGb: 10 });
    await expect(claim(memoryBound)).rejects.toBeInstanceOf(PlacementExhaustedError);
    await t.cp.db
      .updateTable('nodes')
      .set({ cpu_overallocate_percent: 400 })
      .where('id', '=', nodeId)
      .execute();
    // 28 GiB of 32 sold: the next 14 GiB would pass 32.
    await claim(memoryBound);
    await claim(memoryBound);
    expect((await refusal(memoryBound)).refusals[0]?.reasons).toEqual([
      expect.stringMatching(/^memory: 32\.0 GiB of 32\.0 GiB sellable is sold/),
    ]);
  });

  it('never places a plan larger than the node, whatever its overallocation (seed 003)', async () => {
    const seller = await createSeller(t);
    const nodeId = await addNode(t, seller, ROOMY, { cpuOverallocatePercent: 1000 });
    const planId = await addPlan(t, seller, [nodeId], { vcpus: 16, ramGb: 1, diskGb: 10 });
    await reportNode(t, nodeId, { ...ROOMY, cpuCores: 8 });
    expect((await refusal(planId)).refusals[0]?.reasons).toEqual([
      "cpu: 16 vCPU requested, more than the node's 8 vCPU",
    ]);
  });

  it('places only on nodes that are online, out of maintenance, peered and on a network', async () => {
    const seller = await createSeller(t);
    const offline = await addNode(t, seller, { ...ROOMY, serviceStatus: 'SERVICE_STATUS_OFFLINE' });
    const maintenance = await addNode(t, seller, ROOMY, { maintenanceMode: true });
    const unpeered = await addNode(t, seller, ROOMY);
    const unreported = await addNode(t, seller, { cpuCores: 0, memoryGib: 0, storageGib: 0 });
    const planId = await addPlan(t, seller, [offline, maintenance, unpeered, unreported]);
    const platform = await t.cp.db
      .selectFrom('platforms')
      .select('agent_id')
      .where('id', '=', seller.platformId)
      .executeTakeFirstOrThrow();
    // The only agent of the seller loses its peering: every node of the platform stops taking VMs.
    await t.cp.db
      .updateTable('agents')
      .set({ provisioned: false, inbound_peering_state: 'INBOUND_PEERING_STATE_FAILED' })
      .where('id', '=', platform.agent_id ?? '')
      .execute();
    const reasons = Object.fromEntries((await refusal(planId)).refusals.map((r) => [r.nodeId, r.reasons]));
    const agentNotReady = 'its agent is not ready (INBOUND_PEERING_STATE_FAILED)';
    expect(reasons).toEqual({
      [offline]: ['not online (SERVICE_STATUS_OFFLINE)', agentNotReady],
      [maintenance]: ['in maintenance mode', agentNotReady],
      [unpeered]: [agentNotReady],
      [unreported]: [
        agentNotReady,
        'cpu: not reported by the node yet',
        'memory: not reported by the node yet',
        'disk: not reported by the node yet',
      ],
    });
    await t.cp.db
      .updateTable('agents')
      .set({ provisioned: true, inbound_peering_state: 'INBOUND_PEERING_STATE_READY' })
      .where('id', '=', platform.agent_id ?? '')
      .execute();
    await service.release((await claim(planId)).id);
    await t.call('POST', `/v1/ipam/nodes/${unpeered}/unassign-network`, { as: seller.provider, body: {} });
    const noNetwork = await refusal(planId);
    expect(noNetwork.refusals.find((r) => r.nodeId === unpeered)?.reasons).toEqual([
      'no IPAM network to take addresses from',
    ]);
  });

  it('skips VMIDs and MACs of guests NodeRings did not create; one VMID space per platform', async () => {
    const seller = await createSeller(t);
    const a = await addNode(
      t,
      seller,
      {
        ...ROOMY,
        foreignVmids: [1000, 1002],
        foreignMacAddresses: ['02:bb:01:00:00:00', '02:BB:02:00:00:01'],
      },
      { vmidSeed: 1000, macAddressPrefix: '02:BB:01' },
    );
    const b = await addNode(
      t,
      seller,
      { ...ROOMY, foreignVmids: [1003], foreignMacAddresses: ['02:BB:01:00:00:02'] },
      { vmidSeed: 1000, macAddressPrefix: '02:BB:01' },
    );
    const onA = await addPlan(t, seller, [a], { vcpus: 1, ramGb: 1, diskGb: 10 });
    const onB = await addPlan(t, seller, [b], { vcpus: 1, ramGb: 2, diskGb: 10 });
    const placed = [await claim(onA), await claim(onB), await claim(onA)];
    expect(placed.map((c) => c.vmid)).toEqual([1001, 1004, 1005]);
    // Both nodes' foreign MACs count on their network, whatever their case; another prefix's do not.
    expect(placed.map((c) => c.macAddress)).toEqual([
      '02:BB:01:00:00:01',
      '02:BB:01:00:00:03',
      '02:BB:01:00:00:04',
    ]);
  });

  it('tries a node on another network when the chosen node’s network has no address left', async () => {
    const seller = await createSeller(t, { ipv4: { cidr: '192.0.2.32/30', gateway: '192.0.2.33' } });
    const small = await addNode(t, seller, ROOMY);
    const otherNetwork = await addNetwork(t, seller.provider, {
      ipv4: { cidr: '192.0.2.64/30', gateway: '192.0.2.65' },
    });
    const spare = await addNode(t, seller, ROOMY, {}, otherNetwork);
    const planId = await addPlan(t, seller, [small, spare]);
    // A /30 has two hosts, one of them the gateway.
    expect((await claim(planId)).nodeId).toBe(small);
    expect((await claim(planId)).nodeId).toBe(spare);
    const exhausted = await refusal(planId);
    expect(exhausted.refusals).toEqual([
      {
        nodeId: small,
        nodeName: expect.any(String) as unknown,
        reasons: [
          expect.stringMatching(
            new RegExp(`^its network .* \\(${seller.networkId}\\) has no free IPv4 address$`),
          ) as unknown,
        ],
      },
      {
        nodeId: spare,
        nodeName: expect.any(String) as unknown,
        reasons: [expect.stringContaining(otherNetwork) as unknown],
      },
    ]);
  });

  it('places by the policy: FIRST_STABLE fills the oldest node, ROUND_ROBIN takes turns, LEAST_ASSIGNED balances', async () => {
    const seller = await createSeller(t);
    // Four VMs of the plan fit each node.
    const report = { cpuCores: 4, memoryGib: 64, storageGib: 1000 };
    const nodes = [
      await addNode(t, seller, report),
      await addNode(t, seller, report),
      await addNode(t, seller, report),
    ];
    // Listed newest first: the stable order is the nodes' age, not the plan's order.
    const planId = await addPlan(t, seller, [...nodes].reverse());
    const placements = async (count: number) => {
      const placed: number[] = [];
      for (let i = 0; i < count; i++) placed.push(nodes.indexOf((await claim(planId)).nodeId ?? ''));
      return placed;
    };
    expect(await placements(3)).toEqual([0, 0, 0]);
    await putPolicy(seller, { defaultStrategy: 'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN' });
    // Node 0 fills up with the first of these, and the circle skips it from then on.
    expect(await placements(4)).toEqual([0, 1, 2, 1]);
    // Now 4, 2 and 1 VMs: the fewest first, the oldest among equals.
    await putPolicy(seller, { defaultStrategy: 'NODE_PLACEMENT_STRATEGY_LEAST_ASSIGNED_VMS' });
    expect(await placements(3)).toEqual([2, 1, 2]);
    // The circle continues after the node ROUND_ROBIN chose last (1), not where LEAST_ASSIGNED ended.
    await putPolicy(seller, { defaultStrategy: 'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN' });
    expect(await placements(2)).toEqual([2, 1]);
    expect((await refusal(planId)).refusals.map((r) => r.nodeId)).toEqual([...nodes].sort());
  });

  it('places by the region’s override over the default, and RANDOM by the random source', async () => {
    const seller = await createSeller(t);
    const nodes = [
      await addNode(t, seller, ROOMY),
      await addNode(t, seller, ROOMY),
      await addNode(t, seller, ROOMY),
    ];
    const planId = await addPlan(t, seller, nodes);
    await putPolicy(seller, {
      defaultStrategy: 'NODE_PLACEMENT_STRATEGY_FIRST_STABLE',
      regionOverrides: [{ regionId: seller.regionId, strategy: 'NODE_PLACEMENT_STRATEGY_RANDOM' }],
    });
    const picks = [2, 0, 1, 2];
    const placed: string[] = [];
    for (const pick of picks) {
      nextRandom = (bound) => (bound === nodes.length ? pick : -1);
      placed.push((await claim(planId)).nodeId ?? '');
    }
    expect(placed).toEqual(picks.map((i) => nodes[i]));
  });

  it('refuses a deleted or unknown plan, another region, and keeps a claimed node from being deleted', async () => {
    const seller = await createSeller(t);
    const nodeId = await addNode(t, seller, ROOMY);
    const planId = await addPlan(t, seller, [nodeId]);
    await expect(claim(planId, { regionId: randomUUID() })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      fieldViolations: [{ field: 'regionId', description: expect.any(String) as unknown }],
    });
    await expect(claim(randomUUID())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(claim(planId, { clientOrganizationId: randomUUID() })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const held = await claim(planId);
    expect((await t.call('DELETE', `/v1/plans/${planId}`, { as: seller.provider })).status).toBe(200);
    await expect(claim(planId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const refused = await t.call('DELETE', `/v1/node/${nodeId}`, { as: seller.provider });
    expect(refused.status).toBe(412);
    await service.release(held.id);
    expect((await t.call('DELETE', `/v1/node/${nodeId}`, { as: seller.provider })).status).toBe(200);
    expect(await service.release(held.id)).toMatchObject({ status: 'RELEASED', nodeId: null });
  });
});
