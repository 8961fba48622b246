import { X509Certificate } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { call, readExposition } from './kubelet-test-client.js';
import { startKubeletSim, type KubeletSim, type KubeletSimOptions } from './kubelet-sim.js';

const T0 = Date.parse('2026-08-01T10:00:00Z');
const sims: KubeletSim[] = [];

afterEach(async () => {
  for (const sim of sims.splice(0)) await sim.close();
});

async function start(options: KubeletSimOptions = {}): Promise<KubeletSim> {
  const sim = await startKubeletSim({ pods: 12, now: () => T0, ...options });
  sims.push(sim);
  return sim;
}

const TOKEN = { token: 'kubelet-sim-token' };

describe('kubelet-sim over HTTPS', () => {
  it('serves summary, cAdvisor metrics, pods and healthz with a self-signed certificate for the node', async () => {
    const sim = await start({ nodeName: 'worker-3' });
    expect(sim.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const cert = new X509Certificate(sim.caPem);
    expect(cert.subject).toMatch(/^CN=worker-3@\d{10}$/);
    expect(cert.subjectAltName).toBe(
      'DNS:worker-3, DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1',
    );

    const summary = await call(sim, '/stats/summary', TOKEN);
    expect(summary.status).toBe(200);
    expect(summary.headers['content-type']).toBe('application/json');
    expect(JSON.parse(summary.body)).toMatchObject({
      node: { nodeName: 'worker-3', cpu: { time: '2026-08-01T10:00:00Z' } },
    });

    const metrics = await call(sim, '/metrics/cadvisor', TOKEN);
    expect(metrics.status).toBe(200);
    expect(metrics.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const cores = readExposition(metrics.body).samples.find((s) => s.name === 'machine_cpu_cores');
    expect(cores).toMatchObject({ value: sim.node.cores, labels: { machine_id: sim.node.machineId } });

    const pods = await call(sim, '/pods', TOKEN);
    expect(pods.status).toBe(200);
    const list = JSON.parse(pods.body) as { kind: string; items: { metadata: { uid: string } }[] };
    expect(list.kind).toBe('PodList');
    expect(list.items.map((p) => p.metadata.uid)).toEqual(sim.node.pods().map((p) => p.uid));

    expect(await call(sim, '/healthz', TOKEN)).toMatchObject({ status: 200, body: 'ok' });
    const lean = await call(sim, '/stats/summary?only_cpu_and_memory=true', TOKEN);
    expect(Object.keys((JSON.parse(lean.body) as { node: object }).node)).not.toContain('fs');
  });

  it('gzips the cAdvisor text for clients that accept it, as the kubelet does', async () => {
    const sim = await start();
    const plain = await call(sim, '/metrics/cadvisor', TOKEN);
    const zipped = await call(sim, '/metrics/cadvisor', { ...TOKEN, headers: { 'Accept-Encoding': 'gzip' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.bytes).toString()).toBe(plain.body);
  });

  it('authenticates every request and authorizes it per subresource, with the kubelet’s texts', async () => {
    const sim = await start({
      tokens: [
        { token: 'stats-only', user: 'alice', subresources: ['stats'] },
        { token: 'proxy-only', user: 'system:serviceaccount:mon:old-agent', subresources: ['proxy'] },
        { token: 'all' },
      ],
    });
    expect(await call(sim, '/stats/summary')).toMatchObject({ status: 401, body: 'Unauthorized' });
    expect(await call(sim, '/stats/summary', { token: 'nope' })).toMatchObject({
      status: 401,
      body: 'Unauthorized',
    });
    expect(await call(sim, '/healthz')).toMatchObject({ status: 401 });
    expect((await call(sim, '/stats/summary', { token: 'stats-only' })).status).toBe(200);
    expect(await call(sim, '/metrics/cadvisor', { token: 'stats-only' })).toMatchObject({
      status: 403,
      body: 'Forbidden (user=alice, verb=get, resource=nodes, subresource=[metrics])',
    });
    expect(await call(sim, '/pods', { token: 'stats-only' })).toMatchObject({
      status: 403,
      body: 'Forbidden (user=alice, verb=get, resource=nodes, subresource=[pods proxy])',
    });
    // An older RBAC that grants nodes/proxy still reads /pods, but not the stats.
    expect((await call(sim, '/pods', { token: 'proxy-only' })).status).toBe(200);
    expect(await call(sim, '/stats/summary', { token: 'proxy-only' })).toMatchObject({
      status: 403,
      body: 'Forbidden (user=system:serviceaccount:mon:old-agent, verb=get, resource=nodes, subresource=[stats])',
    });
    expect((await call(sim, '/healthz', { token: 'stats-only' })).status).toBe(200);
    expect((await call(sim, '/spec/', { token: 'all' })).status).toBe(404);
    expect(await call(sim, '/pods', { token: 'all', method: 'POST' })).toMatchObject({ status: 405 });
  });

  it('takes new tokens at once when they rotate', async () => {
    const sim = await start({ tokens: [{ token: 'old' }] });
    expect((await call(sim, '/pods', { token: 'old' })).status).toBe(200);
    sim.setTokens([{ token: 'new', subresources: ['stats'] }]);
    expect((await call(sim, '/pods', { token: 'old' })).status).toBe(401);
    expect((await call(sim, '/stats/summary', { token: 'new' })).status).toBe(200);
    expect((await call(sim, '/pods', { token: 'new' })).status).toBe(403);
    expect(() => {
      sim.setTokens([{ token: 'bad', subresources: ['exec' as 'proxy'] }]);
    }).toThrow(/unknown subresource exec/);
  });

  it('injects a status, a delay or a hang per path, and counts every request', async () => {
    const sim = await start();
    sim.setFault('/pods', { status: 503, body: 'kubelet is busy' });
    expect(await call(sim, '/pods', TOKEN)).toMatchObject({ status: 503, body: 'kubelet is busy' });
    expect((await call(sim, '/stats/summary', TOKEN)).status).toBe(200);
    sim.setFault('/pods', { status: 500 });
    expect(await call(sim, '/pods')).toMatchObject({ status: 500, body: 'Internal Server Error' });
    sim.setFault('/pods', undefined);
    expect((await call(sim, '/pods', TOKEN)).status).toBe(200);
    expect(sim.requestCount('/pods')).toBe(3);
    expect(sim.requestCount('/stats/summary')).toBe(1);
    expect(sim.requestCount('/metrics/cadvisor')).toBe(0);

    sim.setFault('/stats/summary', { delayMs: 300 });
    const began = Date.now();
    expect((await call(sim, '/stats/summary', TOKEN)).status).toBe(200);
    expect(Date.now() - began).toBeGreaterThanOrEqual(290);

    sim.setFault('/metrics/cadvisor', { hang: true });
    await expect(call(sim, '/metrics/cadvisor', { ...TOKEN, timeoutMs: 300 })).rejects.toThrow(
      /no answer within/,
    );
    const waiting = call(sim, '/metrics/cadvisor', TOKEN);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sim.requestCount('/metrics/cadvisor')).toBe(2);
    sim.setFault('/metrics/cadvisor', undefined);
    const answered = await waiting;
    expect(answered.status).toBe(200);
    expect(answered.body).toContain('machine_cpu_cores');
    expect(() => {
      sim.setFault('/pods', { status: 42 });
    }).toThrow(/HTTP status/);
  });

  it('ends hanging requests when it closes', async () => {
    const sim = await start();
    sim.setFault('/pods', { hang: true });
    const hanging = call(sim, '/pods', TOKEN);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const began = Date.now();
    await sim.close();
    await expect(hanging).rejects.toThrow();
    expect(Date.now() - began).toBeLessThan(2000);
  });

  it('serves recorded documents byte for byte, malformed ones included', async () => {
    const recorded = {
      summary: '{"node": {"nodeName": "real-node"}, "pods": [',
      cadvisor: '# TYPE machine_cpu_cores gauge\nmachine_cpu_cores 4\n',
      pods: '{"kind":"PodList","apiVersion":"v1","items":[]}\n',
    };
    const sim = await start({ recorded });
    expect((await call(sim, '/stats/summary', TOKEN)).body).toBe(recorded.summary);
    expect((await call(sim, '/metrics/cadvisor', TOKEN)).body).toBe(recorded.cadvisor);
    expect((await call(sim, '/pods', TOKEN)).body).toBe(recorded.pods);
    expect((await call(sim, '/pods')).status).toBe(401);
  });

  it('follows the given clock, so an agent sees counters move as a test advances time', async () => {
    let t = T0;
    const sim = await start({ now: () => t });
    const read = async () =>
      JSON.parse((await call(sim, '/stats/summary', TOKEN)).body) as {
        node: { cpu: { time: string; usageCoreNanoSeconds: number } };
      };
    const first = await read();
    t += 60_000;
    const second = await read();
    expect(second.node.cpu.time).toBe('2026-08-01T10:01:00Z');
    const cores = (second.node.cpu.usageCoreNanoSeconds - first.node.cpu.usageCoreNanoSeconds) / 60e9;
    expect(cores).toBeGreaterThan(0);
    expect(cores).toBeLessThan(sim.node.cores);
  });
});
