import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type TestControlPlane } from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { createReadyOffer, type ReadyOffer } from '../preflight/preflight.test-support.js';

interface OrderRefusalView {
  id: string;
  planId: string;
  planCode: string;
  regionId: string;
  nodes: { nodeId: string; nodeName: string; reasons: string[] }[];
  createTime: string;
}

describe.each(DATABASE_KINDS)('refused orders on the %s database', (kind) => {
  let t: TestControlPlane;
  let offer: ReadyOffer;
  let nodeName: string;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
    offer = await createReadyOffer(t);
    const node = await t.cp.db
      .selectFrom('nodes')
      .select('name')
      .where('id', '=', offer.nodeId)
      .executeTakeFirstOrThrow();
    nodeName = node.name;
  }, 60_000);
  afterAll(() => t.close());

  it("tells the customer only that there is no capacity, and the provider each node's reasons", async () => {
    // What a provider changes between two preflights: the marketplace still lists the plan.
    await t.cp.db
      .updateTable('nodes')
      .set({ maintenance_mode: true })
      .where('id', '=', offer.nodeId)
      .execute();
    const customer = await t.register('ORGANIZATION_TYPE_CLIENT');
    const refused = await t.call<{ code: string; message: string }>('POST', '/v1/virtual-machines', {
      as: customer,
      body: {
        hostname: 'web-1',
        planId: offer.planId,
        regionId: offer.seller.regionId,
        distro: 'DISTRO_UBUNTU_24_04',
        password: 'a long enough password',
        idempotencyKey: randomUUID(),
      },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RESOURCE_EXHAUSTED');
    expect(refused.body.message).toMatch(/no capacity for plan SC-GC-2C-4G-40 in this region right now/i);
    const answer = JSON.stringify(refused.body);
    for (const internal of [nodeName, offer.nodeId, 'maintenance', 'agent', 'sold', 'peering'])
      expect(answer).not.toContain(internal);
    const claims = await t.cp.db
      .selectFrom('vm_claims')
      .select('id')
      .where('client_organization_id', '=', customer.organizationId)
      .execute();
    expect(claims).toEqual([]);

    const seen = await t.call<{ orderRefusals: OrderRefusalView[]; totalCount: number }>(
      'GET',
      '/v1/provider/order-refusals',
      { as: offer.seller.provider },
    );
    expect(seen.status).toBe(200);
    expect(seen.body.totalCount).toBe(1);
    expect(seen.body.orderRefusals).toEqual([
      {
        id: expect.any(String) as unknown,
        planId: offer.planId,
        planCode: 'SC-GC-2C-4G-40',
        regionId: offer.seller.regionId,
        summary: expect.stringContaining(nodeName) as unknown,
        nodes: [{ nodeId: offer.nodeId, nodeName, reasons: ['in maintenance mode'] }],
        createTime: expect.any(String) as unknown,
      },
    ]);
    expect(JSON.stringify(seen.body)).not.toContain(customer.organizationId);

    const otherProvider = await t.verifiedProvider();
    const others = await t.call<{ orderRefusals: unknown[]; totalCount: number }>(
      'GET',
      '/v1/provider/order-refusals',
      { as: otherProvider },
    );
    expect(others.body).toEqual({ orderRefusals: [], totalCount: 0 });
    expect((await t.call('GET', '/v1/provider/order-refusals', { as: customer })).status).toBe(403);
  });
});
