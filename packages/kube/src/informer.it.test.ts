import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProxmoxVM } from './crd-types.js';
import { eventually } from './eventually.test-support.js';
import { Informer } from './informer.js';
import type { Fixture } from './kube-sim-fixture.test-support.js';
import { proxmoxVM, startFixture } from './kube-sim-fixture.test-support.js';
import { keyOf, refOf } from './object-key.js';

let fx: Fixture;

beforeAll(async () => {
  fx = await startFixture({ watchWindow: 5 });
});
afterAll(async () => {
  await fx.close();
});

function recorder(informer: Informer<ProxmoxVM>): string[] {
  const log: string[] = [];
  informer.addHandler({
    onAdd: (o) => log.push(`add ${o.metadata?.name ?? ''}`),
    onUpdate: (_old, o) => log.push(`update ${o.metadata?.name ?? ''}`),
    onDelete: (o) => log.push(`delete ${o.metadata?.name ?? ''}`),
  });
  return log;
}

describe('Informer against kube-sim', () => {
  it('lists, then follows adds, updates and deletes', async () => {
    const existing = proxmoxVM(fx.namespace);
    await fx.client.proxmoxVMs.create(existing);
    const errors: unknown[] = [];
    const informer = new Informer(fx.client.proxmoxVMs, {
      namespace: fx.namespace,
      onError: (e) => errors.push(e),
    });
    const log = recorder(informer);
    informer.start();
    try {
      expect(await informer.waitForSync()).toBe(true);
      expect(informer.hasSynced()).toBe(true);
      expect(log).toContain(`add ${existing.metadata?.name ?? ''}`);

      const fresh = proxmoxVM(fx.namespace);
      const name = fresh.metadata?.name ?? '';
      await fx.client.proxmoxVMs.create(fresh);
      await eventually(() => {
        expect(informer.get(keyOf(fresh))).toBeDefined();
      });
      await fx.client.proxmoxVMs.mergePatch(refOf(fresh), { spec: { powerState: 'Stopped' } });
      await eventually(() => {
        expect(informer.get(keyOf(fresh))?.spec.powerState).toBe('Stopped');
      });
      await fx.client.proxmoxVMs.delete(refOf(fresh));
      await eventually(() => {
        expect(informer.get(keyOf(fresh))).toBeUndefined();
      });
      expect(log.filter((l) => l.endsWith(name))).toEqual([
        `add ${name}`,
        `update ${name}`,
        `delete ${name}`,
      ]);
      expect(errors).toEqual([]);
    } finally {
      await informer.stop();
    }
  });

  it('lists again when its resourceVersion has left the watch window (410) and converges', async () => {
    const keep = proxmoxVM(fx.namespace);
    const doomed = proxmoxVM(fx.namespace);
    await fx.client.proxmoxVMs.create(keep);
    await fx.client.proxmoxVMs.create(doomed);
    const errors: unknown[] = [];
    const informer = new Informer(fx.client.proxmoxVMs, {
      namespace: fx.namespace,
      onError: (e) => errors.push(e),
    });
    const log = recorder(informer);
    informer.start();
    await informer.waitForSync();
    await informer.stop();

    // While the informer is away, far more happens than the 5-event window holds.
    const born: ProxmoxVM[] = [];
    for (let i = 0; i < 10; i++) {
      const vm = proxmoxVM(fx.namespace);
      born.push(vm);
      await fx.client.proxmoxVMs.create(vm);
    }
    for (let i = 0; i < 10; i++) {
      await fx.client.proxmoxVMs.mergePatch(refOf(keep), { metadata: { labels: { round: String(i) } } });
    }
    await fx.client.proxmoxVMs.delete(refOf(doomed));

    informer.start();
    try {
      await eventually(async () => {
        const server = await fx.client.proxmoxVMs.list(fx.namespace);
        const cached = new Map(informer.list().map((o) => [keyOf(o), o.metadata?.resourceVersion]));
        expect(cached).toEqual(new Map(server.items.map((o) => [keyOf(o), o.metadata?.resourceVersion])));
      });
      expect(informer.listCount).toBe(2);
      expect(errors).toEqual([]);
      expect(log).toContain(`delete ${doomed.metadata?.name ?? ''}`);
      expect(log).toContain(`update ${keep.metadata?.name ?? ''}`);
      for (const vm of born) expect(log).toContain(`add ${vm.metadata?.name ?? ''}`);
    } finally {
      await informer.stop();
    }
  });
});
