import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type KubeletSim, startKubeletSim } from '@noderings/kubelet-sim';
import { SecretValues } from '@noderings/log';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

import { KubeletClient, type KubeletClientOptions } from './kubelet-client.js';

const TOKEN = 'kubelet-token-aaaaaaaaaaaaaaaa';
const ROTATED = 'kubelet-token-bbbbbbbbbbbbbbbb';

describe('KubeletClient against kubelet-sim', () => {
  let sim: KubeletSim;
  let dir: string;
  let tokenFile: string;
  let clients: KubeletClient[];

  beforeEach(async () => {
    sim = await startKubeletSim({ tokens: [{ token: TOKEN }] });
    dir = await mkdtemp(join(tmpdir(), 'node-agent-kubelet-'));
    tokenFile = join(dir, 'token');
    await writeFile(tokenFile, `${TOKEN}\n`);
    clients = [];
  });
  afterEach(async () => {
    for (const client of clients) await client.close();
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  });

  function client(options: Partial<KubeletClientOptions> = {}): KubeletClient {
    const created = new KubeletClient({
      url: sim.url,
      tokenFile,
      caPem: sim.caPem,
      insecureSkipVerify: false,
      timeoutMs: 10_000,
      secrets: new SecretValues(),
      ...options,
    });
    clients.push(created);
    return created;
  }

  test('fetches the three documents with the bearer token, trusting the CA it is given', async () => {
    const { summary, cadvisor, pods } = await client().fetchAll();
    expect(summary.ok && (JSON.parse(summary.body) as { node: { nodeName: string } }).node.nodeName).toBe(
      sim.node.nodeName,
    );
    expect(cadvisor.ok && cadvisor.body).toContain('machine_cpu_cores');
    expect(pods.ok && (JSON.parse(pods.body) as { kind: string }).kind).toBe('PodList');
  });

  test('without the CA the certificate is refused, with the two ways out; skip-verify accepts it', async () => {
    const refused = await client({ caPem: undefined }).fetch('summary', 5_000);
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toContain('PROXIMA_KUBELET_CA_FILE');
    expect(!refused.ok && refused.error).toContain('PROXIMA_KUBELET_INSECURE_SKIP_VERIFY');
    expect((await client({ caPem: undefined, insecureSkipVerify: true }).fetch('summary', 5_000)).ok).toBe(
      true,
    );
  });

  test('a 401 explains that the kubelet’s webhook authentication is likely off', async () => {
    await writeFile(tokenFile, 'a-token-the-kubelet-does-not-know');
    const result = await client().fetch('summary', 5_000);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain('401');
    expect(!result.ok && result.error).toContain('authentication.webhook.enabled');
    expect(!result.ok && result.error).toContain('--authentication-token-webhook');
  });

  test('a 403 passes the kubelet’s message on and names the missing subresource', async () => {
    sim.setTokens([{ token: TOKEN, subresources: ['stats', 'metrics'] }]);
    const { summary, cadvisor, pods } = await client().fetchAll();
    expect(summary.ok && cadvisor.ok).toBe(true);
    expect(pods.ok).toBe(false);
    expect(!pods.ok && pods.error).toContain('403');
    expect(!pods.ok && pods.error).toContain('subresource=[pods proxy]');
    expect(!pods.ok && pods.error).toContain('nodes/pods');
    expect(!pods.ok && pods.error).toContain('nodes/proxy before Kubernetes 1.33');
  });

  test('reads the token file again after a 401, so a rotated token works at once', async () => {
    const kubelet = client();
    expect((await kubelet.fetch('summary', 5_000)).ok).toBe(true);
    sim.setTokens([{ token: ROTATED }]);
    await writeFile(tokenFile, ROTATED);
    const before = sim.requestCount('/stats/summary');
    expect((await kubelet.fetch('summary', 5_000)).ok).toBe(true);
    expect(sim.requestCount('/stats/summary') - before).toBe(2);
  });

  test('a hanging /pods holds a tick up for about 2 s, and the other documents still arrive', async () => {
    sim.setFault('/pods', { hang: true });
    const started = Date.now();
    const { summary, cadvisor, pods } = await client().fetchAll();
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(1_900);
    expect(took).toBeLessThan(3_000);
    expect(summary.ok && cadvisor.ok).toBe(true);
    expect(!pods.ok && pods.error).toContain('timed out after 2 s');
  });

  test('another status carries the kubelet’s answer', async () => {
    sim.setFault('/metrics/cadvisor', { status: 503, body: 'cadvisor not ready' });
    const result = await client().fetch('cadvisor', 5_000);
    expect(!result.ok && result.error).toBe('GET /metrics/cadvisor answered 503: cadvisor not ready');
  });
});
