import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createClaimService } from '../../control-plane.js';
import {
  startTestControlPlane,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { addNode, createSeller } from '../placement/placement.test-support.js';
import { createReadyOffer } from './preflight.test-support.js';

interface Check {
  code: string;
  passed: boolean;
  note: string;
  subChecks: Check[];
}

interface PreflightView {
  planId: string;
  planCode: string;
  marketplaceReady: boolean;
  summaryNote: string;
  summaryIssues: string[];
  summaryWarnings: string[];
  regionLabels: string[];
  planChecks: Check[];
  infrastructure: {
    passed: boolean;
    agent: {
      id: string | null;
      name: string;
      checks: Check[];
      platform: {
        id: string;
        name: string;
        checks: Check[];
        node: { id: string; name: string; checks: Check[] };
      };
    };
  }[];
  evaluatedAt: string;
}

interface PreflightList {
  plans: PreflightView[];
  totalCount: number;
  marketplaceReadyCheckIntervalSeconds: number;
  marketplaceReadyCheckEnabled: boolean;
}

function failingCodes(result: PreflightView | undefined): string[] {
  if (result === undefined) return ['(no result)'];
  const failed = (checks: Check[]) => checks.filter((c) => !c.passed).map((c) => c.code);
  return [
    ...failed(result.planChecks),
    ...result.infrastructure.flatMap((e) => [
      ...failed(e.agent.checks),
      ...failed(e.agent.platform.checks),
      ...failed(e.agent.platform.node.checks),
    ]),
  ];
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(DATABASE_KINDS)('preflight checks on the %s database', (kind) => {
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
  });
  afterAll(() => t.close());

  async function preflightOf(caller: Caller, planId: string): Promise<PreflightView | undefined> {
    const response = await t.call<PreflightList>('GET', `/v1/provider/preflight-checks?planId=${planId}`, {
      as: caller,
    });
    expect(response.status).toBe(200);
    return response.body.plans[0];
  }

  it('passes a plan whose node has everything an order needs, showing the whole chain', async () => {
    const offer = await createReadyOffer(t);
    const response = await t.call<PreflightList>('GET', '/v1/provider/preflight-checks', {
      as: offer.seller.provider,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      totalCount: 1,
      marketplaceReadyCheckIntervalSeconds: 60,
      marketplaceReadyCheckEnabled: true,
    });
    const [result] = response.body.plans;
    expect(failingCodes(result)).toEqual([]);
    expect(result).toMatchObject({
      planId: offer.planId,
      planCode: 'SC-GC-2C-4G-40',
      marketplaceReady: true,
      summaryNote: 'Ready for the marketplace: 1 of 1 node can take an order now.',
      summaryIssues: [],
      regionLabels: [expect.stringMatching(/, /)],
    });
    const chain = result?.infrastructure[0]?.agent;
    expect(chain?.platform.node.id).toBe(offer.nodeId);
    expect(chain?.platform.id).toBe(offer.seller.platformId);
    expect(chain?.platform.node.checks.map((c) => c.code)).toEqual([
      'NODE_ONLINE',
      'NODE_NOT_IN_MAINTENANCE',
      'NODE_INVENTORY_SYNCED',
      'NODE_COMPUTE_TYPE',
      'NODE_PLAN_FITS',
      'NODE_CAPACITY_LEFT',
      'NODE_VM_TEMPLATES',
      'NODE_CLOUD_INIT',
      'NODE_NETWORK',
      'NODE_FREE_IPV4',
      'NODE_STORAGE_HEADROOM',
    ]);
    expect(chain?.platform.checks[0]?.note).toBe('No metrics from the platform yet; its agent is online.');
  });

  it('follows a change made through the API before the next read', async () => {
    const offer = await createReadyOffer(t);
    const provider = offer.seller.provider;
    const on = await t.call('PATCH', `/v1/node/${offer.nodeId}`, {
      as: provider,
      body: { maintenanceMode: true },
    });
    expect(on.status).toBe(200);
    const down = await preflightOf(provider, offer.planId);
    expect(down?.marketplaceReady).toBe(false);
    expect(failingCodes(down)).toEqual(['NODE_NOT_IN_MAINTENANCE']);
    expect(down?.summaryIssues).toEqual([expect.stringContaining('maintenance mode')]);
    const issues = await t.call<PreflightList>('GET', '/v1/provider/preflight-checks?issuesOnly=true', {
      as: provider,
    });
    expect(issues.body.plans.map((p) => p.planId)).toEqual([offer.planId]);

    await t.call('PATCH', `/v1/node/${offer.nodeId}`, { as: provider, body: { maintenanceMode: false } });
    expect((await preflightOf(provider, offer.planId))?.marketplaceReady).toBe(true);
    const none = await t.call<PreflightList>('GET', '/v1/provider/preflight-checks?issuesOnly=true', {
      as: provider,
    });
    expect(none.body.totalCount).toBe(0);
  });

  it('fails the cloud-init check when a secret the template names is deleted', async () => {
    const offer = await createReadyOffer(t);
    const provider = offer.seller.provider;
    const secret = await t.call<{ secret: { id: string } }>('POST', '/v1/secrets', {
      as: provider,
      body: { key: 'MONITORING_TOKEN', value: 'token value 1' },
    });
    expect(secret.status).toBe(201);
    const patched = await t.call('PATCH', `/v1/cloudinittemplate/${offer.cloudInitTemplateId}`, {
      as: provider,
      body: {
        vendorData:
          '#cloud-config\nwrite_files:\n  - path: /etc/token\n    content: {{ secrets.MONITORING_TOKEN }}\n',
      },
    });
    expect(patched.status).toBe(200);
    expect((await preflightOf(provider, offer.planId))?.marketplaceReady).toBe(true);

    expect((await t.call('DELETE', `/v1/secrets/${secret.body.secret.id}`, { as: provider })).status).toBe(
      200,
    );
    const result = await preflightOf(provider, offer.planId);
    expect(failingCodes(result)).toEqual(['NODE_CLOUD_INIT']);
    const cloudInit = result?.infrastructure[0]?.agent.platform.node.checks.find(
      (c) => c.code === 'NODE_CLOUD_INIT',
    );
    expect(cloudInit?.subChecks[0]?.note).toMatch(
      /does not compile: vendorData line 4, column 14: secrets.MONITORING_TOKEN: the organization has no secret MONITORING_TOKEN/,
    );
  });

  it('keeps a plan on sale when one node gains a distro, offers it, and places it only there', async () => {
    const offer = await createReadyOffer(t);
    const provider = offer.seller.provider;
    const second = await addNode(t, offer.seller, { cpuCores: 8, memoryGib: 32, storageGib: 500 });
    const template = async (nodeId: string, distro: string) => {
      const created = await t.call('POST', '/v1/vmtemplate', {
        as: provider,
        body: {
          name: `${distro} on ${nodeId}`,
          distro,
          templateId: distro === 'DISTRO_DEBIAN_13' ? 9001 : 9000,
          nodeId,
          cloudInitTemplateId: offer.cloudInitTemplateId,
        },
      });
      expect(created.status).toBe(201);
    };
    await template(second, 'DISTRO_UBUNTU_24_04');
    const assigned = await t.call('PATCH', `/v1/plans/${offer.planId}`, {
      as: provider,
      body: { nodeIds: [offer.nodeId, second] },
    });
    expect(assigned.status).toBe(200);
    await template(second, 'DISTRO_DEBIAN_13');

    const result = await preflightOf(provider, offer.planId);
    expect(result?.marketplaceReady).toBe(true);
    expect(failingCodes(result)).toEqual([]);
    expect(result?.summaryIssues).toEqual([]);
    const firstName = result?.infrastructure[0]?.agent.platform.node.name ?? '';
    expect(result?.summaryWarnings).toEqual([
      `node ${firstName}: no template for DISTRO_DEBIAN_13; orders for it go to the plan's other nodes.`,
    ]);

    const customer = await t.register('ORGANIZATION_TYPE_CLIENT');
    const listed = await t.call<{ offer: { distros: string[] } }>(
      'GET',
      `/v1/marketplace/plans/${offer.planId}`,
      {
        as: customer,
      },
    );
    expect(listed.status).toBe(200);
    expect(listed.body.offer.distros).toEqual(['DISTRO_DEBIAN_13', 'DISTRO_UBUNTU_24_04']);
    for (let i = 0; i < 3; i++) {
      const ordered = await t.call<{ virtualMachine: { id: string } }>('POST', '/v1/virtual-machines', {
        as: customer,
        body: {
          hostname: `debian-${String(i)}`,
          planId: offer.planId,
          regionId: offer.seller.regionId,
          distro: 'DISTRO_DEBIAN_13',
          password: 'a long enough password',
          idempotencyKey: randomUUID(),
        },
      });
      expect(ordered.status).toBe(201);
      const vm = await t.cp.db
        .selectFrom('virtual_machines')
        .select('node_id')
        .where('id', '=', ordered.body.virtualMachine.id)
        .executeTakeFirstOrThrow();
      expect(vm.node_id).toBe(second);
    }
  });

  it('holds back private plans and unverified providers', async () => {
    const privatePlan = await createReadyOffer(t, { plan: { isPublic: false } });
    expect(failingCodes(await preflightOf(privatePlan.seller.provider, privatePlan.planId))).toEqual([
      'PLAN_PUBLIC',
    ]);
    const unverified = await createReadyOffer(t, {
      seller: await createSeller(t),
    });
    expect(failingCodes(await preflightOf(unverified.seller.provider, unverified.planId))).toEqual([
      'PLAN_PROVIDER_VERIFIED',
    ]);
  });

  it('shows a provider only its own plans, and refuses customers', async () => {
    const offer = await createReadyOffer(t);
    const other = await t.verifiedProvider();
    const theirs = await t.call<PreflightList>(
      'GET',
      `/v1/provider/preflight-checks?planId=${offer.planId}`,
      {
        as: other,
      },
    );
    expect(theirs.status).toBe(200);
    expect(theirs.body.totalCount).toBe(0);
    const customer = await t.register('ORGANIZATION_TYPE_CLIENT');
    expect((await t.call('GET', '/v1/provider/preflight-checks', { as: customer })).status).toBe(403);
    expect((await t.call('GET', '/v1/provider/preflight-checks')).status).toBe(401);
  });

  it('refuses bad filters', async () => {
    const provider = await t.verifiedProvider();
    for (const query of ['planId=nope', 'issuesOnly=maybe', 'pageSize=0', `planCode=${'x'.repeat(41)}`])
      expect((await t.call('GET', `/v1/provider/preflight-checks?${query}`, { as: provider })).status).toBe(
        400,
      );
  });
});

describe.each(DATABASE_KINDS)('the periodic preflight on the %s database', (kind) => {
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane(kind, { preflightIntervalSeconds: 1 });
  });
  afterAll(() => t.close());

  async function ready(caller: Caller, planId: string): Promise<PreflightView | undefined> {
    const response = await t.call<PreflightList>('GET', `/v1/provider/preflight-checks?planId=${planId}`, {
      as: caller,
    });
    return response.body.plans[0];
  }

  it('catches what no API call reports: a node going offline, capacity sold by orders', async () => {
    const offer = await createReadyOffer(t, { node: { cpuCores: 2, memoryGib: 8, storageGib: 100 } });
    const provider = offer.seller.provider;
    expect((await ready(provider, offer.planId))?.marketplaceReady).toBe(true);

    await t.cp.db
      .updateTable('nodes')
      .set({ service_status: 'SERVICE_STATUS_OFFLINE' })
      .where('id', '=', offer.nodeId)
      .execute();
    const offline = await waitFor(
      () => ready(provider, offer.planId),
      (r) => r?.marketplaceReady === false,
    );
    expect(failingCodes(offline)).toEqual(['NODE_ONLINE']);

    await t.cp.db
      .updateTable('nodes')
      .set({ service_status: 'SERVICE_STATUS_ONLINE' })
      .where('id', '=', offer.nodeId)
      .execute();
    await waitFor(
      () => ready(provider, offer.planId),
      (r) => r?.marketplaceReady === true,
    );
    const customer = await t.register('ORGANIZATION_TYPE_CLIENT');
    await createClaimService(t.cp.db).claim({
      clientOrganizationId: customer.organizationId,
      planId: offer.planId,
      claimId: randomUUID(),
    });
    const soldOut = await waitFor(
      () => ready(provider, offer.planId),
      (r) => r?.marketplaceReady === false,
    );
    expect(failingCodes(soldOut)).toEqual(['NODE_CAPACITY_LEFT']);
  });
});
