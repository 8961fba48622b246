import { afterAll, beforeAll, expect, it } from 'vitest';

import { CRD_API_VERSION, findCondition } from '@noderings/kube';
import type { ProxmoxClient } from '@noderings/proxmox';

import { NodeLimiter } from '../node-limiter.js';
import type { Env } from '../operator-fixture.test-support.js';
import { createVm, eventually, proxmoxClientFor, startEnv } from '../operator-fixture.test-support.js';
import { OperatorMetrics } from '../operator-metrics.js';
import { ProxmoxInstances } from '../proxmox-instances.js';
import { createVncController } from './vnc.controller.js';
import { VNC_TICKET_LIFETIME_MS } from './vnc.reconciler.js';

const GRACE_MS = 500;

let env: Env;
let pve: ProxmoxClient;
let instances: ProxmoxInstances;
const stop = new AbortController();
let running: Promise<unknown> = Promise.resolve();

// The VNC controller alone, with a short grace, and no VM controller: the guest is made by hand.
beforeAll(async () => {
  env = await startEnv();
  pve = proxmoxClientFor(env);
  const { logger, secrets } = env;
  const metrics = new OperatorMetrics();
  instances = new ProxmoxInstances(env.kube, {
    namespace: 'proxmox-system',
    limiter: new NodeLimiter(4),
    metrics,
    logger,
    secrets,
  });
  instances.informer.start();
  const consoles = createVncController({
    kube: env.kube,
    namespace: '7d2c9e4a-1b3f-4c5d-8e6f-9a0b1c2d3e4f-operator',
    workers: 2,
    logger,
    metrics,
    instances,
    graceMs: GRACE_MS,
    shutdownTimeoutMs: 100,
  });
  running = consoles.controller.run(stop.signal);
});

afterAll(async () => {
  stop.abort();
  await running;
  await instances.informer.stop();
  await instances.close();
  await pve.close();
  await env.close();
});

it(
  'expires with the ticket, drops the credentials, and is deleted after the grace period',
  async () => {
    const vm = await createVm(env);
    await pve.waitForTask(
      'pve1',
      await pve.cloneVm('pve1', 9000, { newid: vm.spec.vmid, name: `NR-${vm.spec.vmId}`, full: true }),
    );
    await pve.waitForTask('pve1', await pve.startVm('pve1', vm.spec.vmid));
    const ref = { namespace: vm.metadata?.namespace ?? '', name: 'console-expiring' };
    await env.kube.vncRequests.create({
      apiVersion: CRD_API_VERSION,
      kind: 'VNCRequest',
      metadata: ref,
      spec: { vmRef: vm.metadata?.name ?? '' },
    });
    const ready = await eventually(async () => {
      const now = await env.kube.vncRequests.get(ref);
      expect(now.status?.phase).toBe('Ready');
      return now;
    });
    const expiresAt = Date.parse(ready.status?.expiresAt ?? '');

    const expired = await eventually(async () => {
      const now = await env.kube.vncRequests.get(ref);
      expect(now.status?.phase).toBe('Expired');
      return now;
    }, VNC_TICKET_LIFETIME_MS + 5_000);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
    expect(expired.status?.ticket).toBeUndefined();
    expect(expired.status?.password).toBeUndefined();
    expect(findCondition(expired.status?.conditions, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'Expired',
    });

    await eventually(async () => {
      expect(await env.kube.vncRequests.find(ref)).toBeUndefined();
    }, 5_000);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt + GRACE_MS);
  },
  VNC_TICKET_LIFETIME_MS + 20_000,
);
