import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller, fromInformer } from './controller.js';
import { eventually } from './eventually.test-support.js';
import { Informer } from './informer.js';
import type { Fixture } from './kube-sim-fixture.test-support.js';
import { proxmoxVM, startFixture } from './kube-sim-fixture.test-support.js';
import { keyOf, refOf } from './object-key.js';
import type { Reconciler } from './reconciler.js';
import { DONE } from './reconciler.js';

let fx: Fixture;

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => {
  await fx.close();
});

describe('Controller against kube-sim', () => {
  it('reconciles every object once it has synced, again after a change, and stops cleanly', async () => {
    const vms = [proxmoxVM(fx.namespace), proxmoxVM(fx.namespace), proxmoxVM(fx.namespace)];
    await fx.client.proxmoxVMs.create(vms[0] ?? proxmoxVM(fx.namespace));
    const reconciled: string[] = [];
    const reconciler: Reconciler = {
      reconcile(key) {
        reconciled.push(key);
        return Promise.resolve(DONE);
      },
    };
    const informer = new Informer(fx.client.proxmoxVMs, { namespace: fx.namespace });
    const controller = new Controller({
      name: 'proxmoxvm',
      reconciler,
      sources: [fromInformer(informer)],
      workers: 2,
    });
    const stop = new AbortController();
    const running = controller.run(stop.signal);

    for (const vm of vms.slice(1)) await fx.client.proxmoxVMs.create(vm);
    await eventually(() => {
      expect(new Set(reconciled)).toEqual(new Set(vms.map(keyOf)));
    });

    const changed = vms[1] ?? proxmoxVM(fx.namespace);
    const before = reconciled.filter((k) => k === keyOf(changed)).length;
    await fx.client.proxmoxVMs.mergePatch(refOf(changed), { spec: { powerState: 'Stopped' } });
    await eventually(() => {
      expect(reconciled.filter((k) => k === keyOf(changed)).length).toBeGreaterThan(before);
    });

    stop.abort();
    await expect(running).resolves.toEqual({ abandoned: [] });
    expect(informer.running).toBe(false);
    expect(controller.metrics()?.successes).toBe(reconciled.length);
  });
});
