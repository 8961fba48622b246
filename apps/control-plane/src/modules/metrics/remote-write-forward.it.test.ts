import { startPrometheus, type PrometheusProcess } from '@noderings/remote-write/prometheus-process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type TestControlPlane } from '../../control-plane.test-support.js';
import { eventually } from '../dispatch/dispatch.test-support.js';
import { addNode, createSeller } from '../placement/placement.test-support.js';
import { createMetricsCredential, pveSeries, writeMetrics } from './metrics.test-support.js';

interface QueryResult {
  data: { result: { metric: Record<string, string>; value: [number, string] }[] };
}

/** The optional forward of accepted series to a Prometheus-compatible store, with a real Prometheus. */
describe('forwarding accepted series to a remote-write store', () => {
  let prometheus: PrometheusProcess;
  let t: TestControlPlane;
  beforeAll(async () => {
    prometheus = await startPrometheus({
      config: 'global: {}\n',
      args: ['--web.enable-remote-write-receiver'],
    });
    t = await startTestControlPlane('embedded', {
      metricsRemoteWrite: { url: `${prometheus.url}/api/v1/write` },
    });
  });
  afterAll(async () => {
    await t.close();
    await prometheus.stop();
  });

  async function query(promql: string): Promise<QueryResult['data']['result']> {
    const response = await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(promql)}`);
    return ((await response.json()) as QueryResult).data.result;
  }

  it("stores what ingest accepted, labelled with the agent, and none of other guests' series", async () => {
    const seller = await createSeller(t);
    await addNode(t, seller, { cpuCores: 0, memoryGib: 0, storageGib: 0 });
    const platform = await t.cp.db
      .selectFrom('platforms')
      .select(['agent_id', 'endpoint_url'])
      .where('id', '=', seller.platformId)
      .executeTakeFirstOrThrow();
    const agentId = platform.agent_id ?? '';
    const token = await createMetricsCredential(t, seller.provider, agentId);
    const labels = { agent_id: agentId, instance: new URL(platform.endpoint_url).host };
    const at = Date.now() - 5000;
    const nr = 'NR-0b8d6a52-1111-4111-8111-000000000002';
    const written = await writeMetrics(t, token, [
      pveSeries('pve_up', { ...labels, id: 'node/pve1' }, [at, 1]),
      pveSeries('pve_up', { ...labels, id: 'qemu/100', name: nr, node: 'pve1', type: 'qemu' }, [at, 1]),
      pveSeries('pve_up', { ...labels, id: 'qemu/101', name: 'lab-vm', node: 'pve1', type: 'qemu' }, [at, 1]),
      pveSeries('pve_lock_state', { ...labels, id: 'qemu/100', name: nr, state: 'backup' }, [at, 0]),
    ]);
    expect(written.status).toBe(204);
    await eventually(async () => {
      const series = await query('pve_up');
      expect(series.map((s) => s.metric.id).sort()).toEqual(['node/pve1', 'qemu/100']);
    });
    expect((await query('pve_up{id="qemu/100"}'))[0]?.metric).toMatchObject({ agent_id: agentId, name: nr });
    expect(await query('pve_lock_state')).toEqual([]);
  });
});
