import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type TestControlPlane } from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { createRegion } from '../nodes/node.test-support.js';
import { addNode } from '../placement/placement.test-support.js';
import { createReadyOffer, settlePreflight, type ReadyOffer } from '../preflight/preflight.test-support.js';
import { fieldsOf } from './plan.test-support.js';

interface PlanView {
  regionIds: string[];
  regionId: string | null;
  nodeIds: string[];
}

interface ProviderOffer {
  planId: string;
  planRegions: { regionId: string; city: string }[];
}

describe.each(DATABASE_KINDS)('one plan sold in several regions on the %s database', (kind) => {
  let t: TestControlPlane;
  let offer: ReadyOffer;
  let frankfurt: string;
  let amsterdam: string;
  let amsterdamNode: string;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
    offer = await createReadyOffer(t);
    frankfurt = offer.seller.regionId;
    amsterdam = await createRegion(t, offer.seller.provider, 'nl-ams');
    amsterdamNode = await addNode(
      t,
      { ...offer.seller, regionId: amsterdam },
      {
        cpuCores: 8,
        memoryGib: 32,
        storageGib: 500,
      },
    );
    const template = await t.call('POST', '/v1/vmtemplate', {
      as: offer.seller.provider,
      body: {
        name: 'ubuntu in amsterdam',
        distro: 'DISTRO_UBUNTU_24_04',
        templateId: 9000,
        nodeId: amsterdamNode,
        cloudInitTemplateId: offer.cloudInitTemplateId,
      },
    });
    expect(template.status).toBe(201);
  }, 60_000);
  afterAll(() => t.close());

  async function order(regionId: string) {
    const customer = await t.register('ORGANIZATION_TYPE_CLIENT');
    return t.call<{ virtualMachine: { id: string; regionCity: string } }>('POST', '/v1/virtual-machines', {
      as: customer,
      body: {
        hostname: 'web-1',
        planId: offer.planId,
        regionId,
        distro: 'DISTRO_UBUNTU_24_04',
        password: 'a long enough password',
        idempotencyKey: randomUUID(),
      },
    });
  }

  async function nodeOf(vmId: string): Promise<string | null> {
    const row = await t.cp.db
      .selectFrom('virtual_machines')
      .select('node_id')
      .where('id', '=', vmId)
      .executeTakeFirstOrThrow();
    return row.node_id;
  }

  async function offeredRegions(): Promise<string[]> {
    const listed = await t.call<{ providers: ProviderOffer[] }>(
      'GET',
      '/v1/marketplace/providers?filterPlanCode=SC-GC-2C-4G-40',
    );
    expect(listed.status).toBe(200);
    return listed.body.providers.flatMap((p) => p.planRegions.map((r) => r.city)).sort();
  }

  it('adds a second region to the same size, lists and places it per region', async () => {
    const provider = offer.seller.provider;
    const strayNode = await t.call('PATCH', `/v1/plans/${offer.planId}`, {
      as: provider,
      body: { regionIds: [frankfurt], nodeIds: [offer.nodeId, amsterdamNode] },
    });
    expect([strayNode.status, fieldsOf(strayNode.body)]).toEqual([400, ['nodeIds.1']]);
    const both = await t.call<{ plan: PlanView }>('PATCH', `/v1/plans/${offer.planId}`, {
      as: provider,
      body: { regionIds: [frankfurt, amsterdam], nodeIds: [offer.nodeId, amsterdamNode] },
    });
    expect(both.status).toBe(200);
    expect(both.body.plan).toMatchObject({
      regionIds: [frankfurt, amsterdam],
      regionId: frankfurt,
      nodeIds: [offer.nodeId, amsterdamNode],
    });
    await settlePreflight(t, provider);

    const preflight = await t.call<{
      plans: { regions: { regionId: string; marketplaceReady: boolean }[] }[];
    }>('GET', `/v1/provider/preflight-checks?planId=${offer.planId}`, { as: provider });
    expect(preflight.body.plans[0]?.regions.map((r) => [r.regionId, r.marketplaceReady])).toEqual([
      [frankfurt, true],
      [amsterdam, true],
    ]);
    expect(await offeredRegions()).toEqual(['Amsterdam', 'Frankfurt']);
    const resolved = await t.call<{ offer: { regionId: string; offeredRegions: { regionId: string }[] } }>(
      'GET',
      `/v1/marketplace/plans/${offer.planId}?regionId=${amsterdam}`,
    );
    expect(resolved.body.offer.regionId).toBe(amsterdam);
    expect(resolved.body.offer.offeredRegions.map((r) => r.regionId)).toEqual([frankfurt, amsterdam]);

    const inAmsterdam = await order(amsterdam);
    expect(inAmsterdam.status).toBe(201);
    expect(inAmsterdam.body.virtualMachine.regionCity).toBe('Amsterdam');
    expect(await nodeOf(inAmsterdam.body.virtualMachine.id)).toBe(amsterdamNode);
    const inFrankfurt = await order(frankfurt);
    expect(inFrankfurt.status).toBe(201);
    expect(inFrankfurt.body.virtualMachine.regionCity).toBe('Frankfurt');
    expect(await nodeOf(inFrankfurt.body.virtualMachine.id)).toBe(offer.nodeId);

    // A region the plan does not sell in is named as the wrong field; nothing is taken.
    const paris = await createRegion(t, provider, 'fr-par');
    const elsewhere = await order(paris);
    expect([elsewhere.status, fieldsOf(elsewhere.body)]).toEqual([400, ['regionId']]);

    // A region whose nodes all fail preflight leaves the marketplace; the other stays.
    const down = await t.call('PATCH', `/v1/node/${amsterdamNode}`, {
      as: provider,
      body: { maintenanceMode: true },
    });
    expect(down.status).toBe(200);
    await settlePreflight(t, provider);
    expect(await offeredRegions()).toEqual(['Frankfurt']);
    expect((await order(amsterdam)).status).toBe(400);
    expect((await order(frankfurt)).status).toBe(201);
  });

  it('refuses a plan without regions, or naming one twice', async () => {
    const provider = offer.seller.provider;
    for (const [regionIds, field] of [
      [[], 'regionIds'],
      [[frankfurt, frankfurt], 'regionIds.1'],
    ] as const) {
      const response = await t.call('PATCH', `/v1/plans/${offer.planId}`, {
        as: provider,
        body: { regionIds },
      });
      expect([response.status, fieldsOf(response.body)]).toEqual([400, [field]]);
    }
    const both = await t.call('PATCH', `/v1/plans/${offer.planId}`, {
      as: provider,
      body: { regionIds: [frankfurt], regionId: frankfurt },
    });
    expect([both.status, fieldsOf(both.body)]).toEqual([400, ['regionId']]);
  });
});
