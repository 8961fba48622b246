import { randomUUID } from 'node:crypto';

import { encodeWriteRequest, postRemoteWrite, STALE_NAN, type TimeSeries } from '@noderings/remote-write';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { eventually } from '../dispatch/dispatch.test-support.js';
import { addNode, createSeller, type Seller } from '../placement/placement.test-support.js';
import { createReadyOffer, settlePreflight } from '../preflight/preflight.test-support.js';
import { createMetricsCredential, pveSeries, writeMetrics } from './metrics.test-support.js';

const GIB = 1024 ** 3;
const MINUTE = 60_000;

/** A provider's agent, platform and node as the agent's forwarder labels them. */
interface Site {
  readonly seller: Seller;
  readonly agentId: string;
  readonly instance: string;
  readonly nodeId: string;
  readonly node: string;
  readonly token: string;
}

async function siteOf(t: TestControlPlane, seller: Seller, nodeId: string): Promise<Site> {
  const platform = await t.cp.db
    .selectFrom('platforms')
    .select(['agent_id', 'endpoint_url'])
    .where('id', '=', seller.platformId)
    .executeTakeFirstOrThrow();
  const node = await t.cp.db
    .selectFrom('nodes')
    .select('name')
    .where('id', '=', nodeId)
    .executeTakeFirstOrThrow();
  const agentId = platform.agent_id ?? '';
  return {
    seller,
    agentId,
    instance: new URL(platform.endpoint_url).host,
    nodeId,
    node: node.name,
    token: await createMetricsCredential(t, seller.provider, agentId),
  };
}

/** What the exporter says about a node (and its cluster), labelled as the agent's forwarder labels it. */
function nodeSeries(
  site: Site,
  at: number,
  o: { up?: number; cores?: number; memoryGib?: number; storageGib?: number } = {},
): TimeSeries[] {
  const labels = { agent_id: site.agentId, instance: site.instance };
  return [
    pveSeries('pve_up', { ...labels, id: `node/${site.node}` }, [at, o.up ?? 1]),
    pveSeries('pve_up', { ...labels, id: 'cluster/prod' }, [at, 1]),
    pveSeries('pve_cpu_usage_limit', { ...labels, id: `node/${site.node}` }, [at, o.cores ?? 16]),
    pveSeries('pve_memory_size_bytes', { ...labels, id: `node/${site.node}` }, [
      at,
      (o.memoryGib ?? 64) * GIB,
    ]),
    pveSeries('pve_disk_size_bytes', { ...labels, id: `storage/${site.node}/local-lvm` }, [
      at,
      (o.storageGib ?? 1000) * GIB,
    ]),
    pveSeries('pve_disk_usage_bytes', { ...labels, id: `storage/${site.node}/local-lvm` }, [at, 10 * GIB]),
  ];
}

/** Some series, for requests that are broken after they were encoded. */
const NODE_SERIES = [
  pveSeries('pve_up', { id: 'node/pve1' }, [1, 1]),
  pveSeries('pve_up', { id: 'node/pve2' }, [1, 1]),
];

async function inventoryOf(t: TestControlPlane, nodeId: string) {
  return t.cp.db
    .selectFrom('nodes')
    .select(['inventory', 'service_status'])
    .where('id', '=', nodeId)
    .executeTakeFirstOrThrow();
}

async function platformOf(t: TestControlPlane, platformId: string) {
  return t.cp.db
    .selectFrom('platforms')
    .select(['service_status', 'metrics_reported_at'])
    .where('id', '=', platformId)
    .executeTakeFirstOrThrow();
}

async function planReady(t: TestControlPlane, provider: Caller, planId: string): Promise<boolean> {
  await settlePreflight(t, provider);
  const result = await t.call<{ plans: { planId: string; marketplaceReady: boolean }[] }>(
    'GET',
    '/v1/provider/preflight-checks?pageSize=100',
    { as: provider },
  );
  return result.body.plans.find((p) => p.planId === planId)?.marketplaceReady ?? false;
}

describe.each(DATABASE_KINDS)('metrics ingest on the %s database', (kind) => {
  let t: TestControlPlane;
  beforeAll(async () => {
    // A short silence so that the offline transition is seen within the test.
    t = await startTestControlPlane(kind, { metricsSilenceSeconds: 2, preflightIntervalSeconds: 0 });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('metrics write credentials', () => {
    it('are shown once, write for their agent, and stop working when rotated or revoked', async () => {
      const seller = await createSeller(t);
      const nodeId = await addNode(t, seller, { cpuCores: 0, memoryGib: 0, storageGib: 0 });
      const site = await siteOf(t, seller, nodeId);
      expect(site.token).toMatch(/^nrm_[A-Za-z0-9_-]{43}$/);
      const listed = await t.call<{ credentials: Record<string, unknown>[] }>(
        'GET',
        `/v1/metrics-credentials?agentId=${site.agentId}`,
        { as: seller.provider },
      );
      expect(listed.body.credentials).toHaveLength(1);
      expect(JSON.stringify(listed.body)).not.toContain(site.token);
      const id = String(listed.body.credentials[0]?.id);

      expect((await writeMetrics(t, site.token, nodeSeries(site, Date.now()))).status).toBe(204);
      const rotated = await t.call<{ token: string }>('POST', `/v1/metrics-credentials/${id}:rotate`, {
        as: seller.provider,
        body: { gracePeriodSeconds: 600 },
      });
      expect(rotated.status).toBe(200);
      // Within the grace period both tokens work; without one the old token stops at once.
      expect((await writeMetrics(t, site.token, nodeSeries(site, Date.now()))).status).toBe(204);
      expect((await writeMetrics(t, rotated.body.token, nodeSeries(site, Date.now()))).status).toBe(204);
      const again = await t.call<{ token: string }>('POST', `/v1/metrics-credentials/${id}:rotate`, {
        as: seller.provider,
        body: {},
      });
      expect((await writeMetrics(t, rotated.body.token, nodeSeries(site, Date.now()))).status).toBe(401);
      expect((await writeMetrics(t, again.body.token, nodeSeries(site, Date.now()))).status).toBe(204);

      expect((await t.call('DELETE', `/v1/metrics-credentials/${id}`, { as: seller.provider })).status).toBe(
        200,
      );
      const refused = await writeMetrics(t, again.body.token, nodeSeries(site, Date.now()));
      expect(refused.status).toBe(401);
      expect(refused.message).toContain('metrics write credential');
      expect((await writeMetrics(t, undefined, nodeSeries(site, Date.now()))).status).toBe(401);
    });

    it("are a provider admin's, for the organisation's own agents only", async () => {
      const seller = await createSeller(t);
      const other = await createSeller(t);
      const otherAgent = await t.cp.db
        .selectFrom('platforms')
        .select('agent_id')
        .where('id', '=', other.platformId)
        .executeTakeFirstOrThrow();
      const foreign = await t.call('POST', '/v1/metrics-credentials', {
        as: seller.provider,
        body: { agentId: otherAgent.agent_id },
      });
      expect(foreign.status).toBe(404);
      const client = await t.register('ORGANIZATION_TYPE_CLIENT');
      const asClient = await t.call('POST', '/v1/metrics-credentials', {
        as: client,
        body: { agentId: otherAgent.agent_id },
      });
      expect(asClient.status).toBe(403);
    });
  });

  describe('refused requests store nothing', () => {
    let site: Site;
    beforeAll(async () => {
      const seller = await createSeller(t);
      site = await siteOf(t, seller, await addNode(t, seller, { cpuCores: 0, memoryGib: 0, storageGib: 0 }));
    });

    async function nothingStored() {
      expect(await platformOf(t, site.seller.platformId)).toMatchObject({ metrics_reported_at: null });
      expect((await inventoryOf(t, site.nodeId)).inventory).toMatchObject({ cpuCores: 0 });
    }

    it("refuses another agent's series with 403, the whole request", async () => {
      const series = nodeSeries(site, Date.now());
      const foreign = pveSeries('pve_up', { agent_id: randomUUID(), instance: site.instance, id: 'node/x' }, [
        Date.now(),
        1,
      ]);
      const response = await writeMetrics(t, site.token, [...series, foreign]);
      expect(response.status).toBe(403);
      expect(response.message).toContain('this credential writes only for agent');
      await nothingStored();
    });

    it.each([
      ['not snappy', Buffer.from('definitely not a snappy block')],
      ['snappy of garbage', Buffer.from(encodeWriteRequest({ timeseries: NODE_SERIES })).fill(0xff, 2)],
      ['a truncated request', encodeWriteRequest({ timeseries: NODE_SERIES }).subarray(0, 40)],
      ['an empty body', new Uint8Array()],
    ])('answers %s with 400', async (_name, body) => {
      const response = await postRemoteWrite(`${t.url}/api/v1/write`, body, {
        Authorization: `Bearer ${site.token}`,
      });
      expect(response.status).toBe(400);
      expect(JSON.parse(response.message)).toMatchObject({ code: 'INVALID_ARGUMENT' });
      await nothingStored();
    });

    it('refuses an oversized body (413), another media type (415) and remote-write 2.0 (415)', async () => {
      const auth = { Authorization: `Bearer ${site.token}` };
      const huge = await postRemoteWrite(`${t.url}/api/v1/write`, new Uint8Array(9 * 1024 * 1024), auth);
      expect(huge.status).toBe(413);
      // Five bytes whose snappy preamble claims 3.75 GiB: refused before decompressing.
      const bomb = await postRemoteWrite(
        `${t.url}/api/v1/write`,
        Uint8Array.from([0x80, 0x80, 0x80, 0x80, 0x0f]),
        auth,
      );
      expect(bomb.status).toBe(413);
      const json = await fetch(`${t.url}/api/v1/write`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(json.status).toBe(415);
      const v2 = await postRemoteWrite(`${t.url}/api/v1/write`, encodeWriteRequest({ timeseries: [] }), {
        ...auth,
        'Content-Type': 'application/x-protobuf;proto=io.prometheus.write.v2.Request',
      });
      expect(v2.status).toBe(415);
      await nothingStored();
    });
  });

  it('turns a platform online when every host is up, offline when one is down or all go silent', async () => {
    const seller = await createSeller(t);
    const site = await siteOf(
      t,
      seller,
      await addNode(t, seller, { cpuCores: 0, memoryGib: 0, storageGib: 0 }),
    );
    await t.cp.db
      .updateTable('platforms')
      .set({ service_status: 'SERVICE_STATUS_OFFLINE' })
      .where('id', '=', seller.platformId)
      .execute();

    expect((await writeMetrics(t, site.token, nodeSeries(site, Date.now()))).status).toBe(204);
    const online = await platformOf(t, seller.platformId);
    expect(online.service_status).toBe('SERVICE_STATUS_ONLINE');
    expect(online.metrics_reported_at).not.toBeNull();
    expect((await inventoryOf(t, site.nodeId)).service_status).toBe('SERVICE_STATUS_ONLINE');

    await writeMetrics(t, site.token, nodeSeries(site, Date.now(), { up: 0 }));
    expect((await platformOf(t, seller.platformId)).service_status).toBe('SERVICE_STATUS_OFFLINE');
    expect((await inventoryOf(t, site.nodeId)).service_status).toBe('SERVICE_STATUS_OFFLINE');

    await writeMetrics(t, site.token, nodeSeries(site, Date.now()));
    expect((await platformOf(t, seller.platformId)).service_status).toBe('SERVICE_STATUS_ONLINE');
    // Then nothing more: after the silence (2 s here) the sweep turns both offline.
    await eventually(async () => {
      expect((await platformOf(t, seller.platformId)).service_status).toBe('SERVICE_STATUS_OFFLINE');
      expect((await inventoryOf(t, site.nodeId)).service_status).toBe('SERVICE_STATUS_OFFLINE');
    });
  });

  it('syncs node inventory, and preflight follows it', async () => {
    const offer = await createReadyOffer(t, {
      node: { cpuCores: 0, memoryGib: 0, storageGib: 0 },
      plan: { vcpus: 4, ramGb: 8, diskGb: 50 },
    });
    const site = await siteOf(t, offer.seller, offer.nodeId);
    expect(await planReady(t, offer.seller.provider, offer.planId)).toBe(false);

    const now = Date.now();
    await writeMetrics(t, site.token, nodeSeries(site, now, { cores: 16, memoryGib: 64, storageGib: 1000 }));
    expect((await inventoryOf(t, site.nodeId)).inventory).toMatchObject({
      cpuCores: 16,
      memoryBytes: 64 * GIB,
      storagePools: [{ storageId: 'local-lvm', totalBytes: 1000 * GIB, allocatedBytes: 10 * GIB }],
    });
    expect(await planReady(t, offer.seller.provider, offer.planId)).toBe(true);

    const listed = await t.call<{ node: { inventory: Record<string, unknown> } }>(
      'GET',
      `/v1/node/${site.nodeId}`,
      {
        as: offer.seller.provider,
      },
    );
    expect(listed.body.node.inventory).toMatchObject({
      cpuCores: 16,
      nonNrMemoryBytes: 0,
      syncedAt: expect.any(String) as unknown,
    });
    // Guests that are not NodeRings' take 60 GiB of the 64: the plan's 8 GiB no longer fit.
    const labels = { agent_id: site.agentId, instance: site.instance, node: site.node };
    await writeMetrics(t, site.token, [
      pveSeries('non_nr_pve_memory_size_bytes', labels, [now + 1000, 60 * GIB]),
    ]);
    expect((await inventoryOf(t, site.nodeId)).inventory).toMatchObject({
      nonNrMemoryBytes: 60 * GIB,
      cpuCores: 16,
    });
    expect(await planReady(t, offer.seller.provider, offer.planId)).toBe(false);

    // Those guests are gone: the series goes stale and the memory is back.
    await writeMetrics(t, site.token, [
      pveSeries('non_nr_pve_memory_size_bytes', labels, [now + 2000, STALE_NAN]),
    ]);
    expect(await planReady(t, offer.seller.provider, offer.planId)).toBe(true);
  });

  it('takes a series repeated within one request, one entry per sample, as Prometheus sends it', async () => {
    const seller = await createSeller(t);
    const site = await siteOf(
      t,
      seller,
      await addNode(t, seller, { cpuCores: 0, memoryGib: 0, storageGib: 0 }),
    );
    const now = Date.now();
    const response = await writeMetrics(t, site.token, [
      ...nodeSeries(site, now - 1000, { up: 0, cores: 8 }),
      ...nodeSeries(site, now, { up: 1, cores: 12 }),
    ]);
    expect(response.status).toBe(204);
    expect(await inventoryOf(t, site.nodeId)).toMatchObject({
      service_status: 'SERVICE_STATUS_ONLINE',
      inventory: { cpuCores: 12 },
    });
  });

  it("ignores series of a platform that is not the agent's", async () => {
    const seller = await createSeller(t);
    const site = await siteOf(
      t,
      seller,
      await addNode(t, seller, { cpuCores: 0, memoryGib: 0, storageGib: 0 }),
    );
    const elsewhere = { ...site, instance: 'pve.elsewhere.test:8006' };
    expect((await writeMetrics(t, site.token, nodeSeries(elsewhere, Date.now()))).status).toBe(204);
    expect(await platformOf(t, seller.platformId)).toMatchObject({ metrics_reported_at: null });
  });

  describe("a customer's VM", () => {
    let site: Site;
    let buyer: Caller;
    let vmId: string;
    let vmid: number;

    beforeAll(async () => {
      const offer = await createReadyOffer(t, { plan: { bandwidthAllowanceGb: 1000 } });
      site = await siteOf(t, offer.seller, offer.nodeId);
      buyer = await t.register('ORGANIZATION_TYPE_CLIENT');
      const ordered = await t.call<{ virtualMachine: { id: string } }>('POST', '/v1/virtual-machines', {
        as: buyer,
        body: {
          hostname: 'web-1',
          planId: offer.planId,
          regionId: offer.seller.regionId,
          distro: 'DISTRO_UBUNTU_24_04',
          password: 'a long enough password',
          idempotencyKey: randomUUID(),
        },
      });
      if (ordered.status !== 201) throw new Error(`order: ${JSON.stringify(ordered.body)}`);
      vmId = ordered.body.virtualMachine.id;
      const row = await t.cp.db
        .selectFrom('virtual_machines')
        .select('spec')
        .where('id', '=', vmId)
        .executeTakeFirstOrThrow();
      vmid = Number(row.spec.vmid);
    });

    function guest(name: string, metric: string, ...samples: [number, number][]): TimeSeries {
      return pveSeries(
        metric,
        {
          agent_id: site.agentId,
          instance: site.instance,
          id: `qemu/${vmid}`,
          name,
          node: site.node,
          type: 'qemu',
        },
        ...samples,
      );
    }

    async function egress(): Promise<{ egressBytes: number; ingressBytes: number }> {
      const usage = await t.call<{ periods: { egressBytes: number; ingressBytes: number }[] }>(
        'GET',
        `/v1/virtual-machines/${vmId}/bandwidth-usage`,
        { as: buyer },
      );
      expect(usage.status).toBe(200);
      return usage.body.periods[0] ?? { egressBytes: -1, ingressBytes: -1 };
    }

    it('shows the reported power state', async () => {
      const before = await t.call<{ virtualMachine: { powerState: string } }>(
        'GET',
        `/v1/virtual-machines/${vmId}`,
        { as: buyer },
      );
      expect(before.body.virtualMachine.powerState).toBe('POWER_STATE_UNKNOWN');
      const at = Date.now();
      await writeMetrics(t, site.token, [guest(`NR-${vmId}`, 'pve_up', [at - 30_000, 1])]);
      const after = await t.call<{ virtualMachine: { powerState: string; powerStateTime: string } }>(
        'GET',
        `/v1/virtual-machines/${vmId}`,
        { as: buyer },
      );
      expect(after.body.virtualMachine).toMatchObject({
        powerState: 'POWER_STATE_RUNNING',
        powerStateTime: new Date(at - 30_000).toISOString(),
      });
    });

    it('bills traffic once across counter resets and replayed requests', async () => {
      const t0 = Math.floor(Date.now() / MINUTE) * MINUTE - 10 * MINUTE;
      const first = [
        guest(`NR-${vmId}`, 'pve_network_transmit_bytes_total', [t0, 1000], [t0 + 30_000, 3000]),
        guest(`NR-${vmId}`, 'pve_network_receive_bytes_total', [t0, 50], [t0 + 30_000, 80]),
      ];
      expect((await writeMetrics(t, site.token, first)).status).toBe(204);
      expect(await egress()).toEqual(expect.objectContaining({ egressBytes: 3000, ingressBytes: 80 }));
      // The same request again (a sender's retry) changes nothing.
      expect((await writeMetrics(t, site.token, first)).status).toBe(204);
      expect(await egress()).toEqual(expect.objectContaining({ egressBytes: 3000, ingressBytes: 80 }));
      // The guest restarted: its counter starts again from zero.
      await writeMetrics(t, site.token, [
        guest(`NR-${vmId}`, 'pve_network_transmit_bytes_total', [t0 + 60_000, 400], [t0 + 90_000, 900]),
      ]);
      expect(await egress()).toEqual(expect.objectContaining({ egressBytes: 3900 }));
    });

    it("never stores a guest's series without its NR- name, and serves charts", async () => {
      const t0 = Math.floor(Date.now() / MINUTE) * MINUTE - 5 * MINUTE;
      await writeMetrics(t, site.token, [
        guest(`NR-${vmId}`, 'pve_cpu_usage_ratio', [t0 + 1000, 0.25], [t0 + 31_000, 0.75]),
        // The same guest relabelled as a lab VM: dropped on ingest whatever the agent sent.
        guest('lab-vm', 'pve_cpu_usage_ratio', [t0 + 61_000, 1]),
        guest('lab-vm', 'pve_network_transmit_bytes_total', [t0 + 61_000, 10 ** 12]),
      ]);
      const chart = await t.call<{ resolutionSeconds: number; points: Record<string, unknown>[] }>(
        'GET',
        `/v1/virtual-machines/${vmId}/metrics?series=CHART_SERIES_CPU&from=${new Date(t0).toISOString()}`,
        { as: buyer },
      );
      expect(chart.status).toBe(200);
      expect(chart.body.resolutionSeconds).toBe(60);
      expect(chart.body.points).toEqual([
        { time: new Date(t0).toISOString(), cpuUsageRatio: 0.5, cpuUsageRatioMax: 0.75 },
      ]);
      expect((await egress()).egressBytes).toBeLessThan(10 ** 12);

      const network = await t.call<{ points: Record<string, unknown>[] }>(
        'GET',
        `/v1/virtual-machines/${vmId}/metrics?series=CHART_SERIES_NETWORK&from=${new Date(t0 - 10 * MINUTE).toISOString()}`,
        { as: buyer },
      );
      expect(network.body.points[0]).toMatchObject({ networkTransmitBytesPerSecond: 3000 / 60 });

      // A longer range asks for fewer points: the minutes are merged into steps of the size asked for.
      const step = 10 * MINUTE;
      const stepped = await t.call<{ resolutionSeconds: number; points: Record<string, unknown>[] }>(
        'GET',
        `/v1/virtual-machines/${vmId}/metrics?series=CHART_SERIES_CPU&from=${new Date(t0 - step).toISOString()}&step=600`,
        { as: buyer },
      );
      expect(stepped.status).toBe(200);
      expect(stepped.body.resolutionSeconds).toBe(600);
      expect(stepped.body.points).toEqual([
        {
          time: new Date(Math.floor(t0 / step) * step).toISOString(),
          cpuUsageRatio: 0.5,
          cpuUsageRatioMax: 0.75,
        },
      ]);
      const uneven = await t.call<{ details: unknown[] }>(
        'GET',
        `/v1/virtual-machines/${vmId}/metrics?series=CHART_SERIES_CPU&step=90`,
        { as: buyer },
      );
      expect(uneven.status).toBe(400);
      expect(JSON.stringify(uneven.body)).toContain('query.step');
    });

    it("is the customer's alone to read", async () => {
      const stranger = await t.register('ORGANIZATION_TYPE_CLIENT');
      for (const path of [
        `/v1/virtual-machines/${vmId}/metrics?series=CHART_SERIES_CPU`,
        `/v1/virtual-machines/${vmId}/bandwidth-usage`,
      ])
        expect((await t.call('GET', path, { as: stranger })).status).toBe(404);
      const backwards = await t.call(
        'GET',
        `/v1/virtual-machines/${vmId}/metrics?series=CHART_SERIES_CPU&from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z`,
        { as: buyer },
      );
      expect(backwards.status).toBe(400);
    });

    it("ignores another agent's VM and a VMID that is not the VM's", async () => {
      const seller = await createSeller(t);
      const other = await siteOf(
        t,
        seller,
        await addNode(t, seller, { cpuCores: 0, memoryGib: 0, storageGib: 0 }),
      );
      const before = await egress();
      const labels = { id: `qemu/${vmid}`, name: `NR-${vmId}`, node: other.node, type: 'qemu' };
      const later = Date.now();
      await writeMetrics(t, other.token, [
        pveSeries(
          'pve_network_transmit_bytes_total',
          { ...labels, agent_id: other.agentId, instance: other.instance },
          [later, 10 ** 9],
        ),
      ]);
      await writeMetrics(t, site.token, [
        pveSeries(
          'pve_network_transmit_bytes_total',
          { ...labels, id: `qemu/${vmid + 1}`, agent_id: site.agentId, instance: site.instance },
          [later, 10 ** 9],
        ),
      ]);
      expect(await egress()).toEqual(before);
    });
  });
});
