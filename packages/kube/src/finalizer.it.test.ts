import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFinalizer, hasFinalizer, isBeingDeleted, removeFinalizer } from './finalizer.js';
import type { Fixture } from './kube-sim-fixture.test-support.js';
import { proxmoxVM, startFixture } from './kube-sim-fixture.test-support.js';
import { refOf } from './object-key.js';

const FINALIZER = 'vm.noderings.com/proxmox-guest';
let fx: Fixture;

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => {
  await fx.close();
});

describe('finalizers against kube-sim', () => {
  it('holds a deleted object until the finalizer is removed', async () => {
    const order = proxmoxVM(fx.namespace);
    const created = await fx.client.proxmoxVMs.create(order);
    const ref = refOf(order);

    const guarded = await ensureFinalizer(fx.client.proxmoxVMs, created, FINALIZER);
    expect(hasFinalizer(guarded, FINALIZER)).toBe(true);
    // A second call changes nothing, so it must not write.
    const again = await ensureFinalizer(fx.client.proxmoxVMs, guarded, FINALIZER);
    expect(again.metadata?.resourceVersion).toBe(guarded.metadata?.resourceVersion);

    await fx.client.proxmoxVMs.delete(ref);
    const deleting = await fx.client.proxmoxVMs.get(ref);
    expect(isBeingDeleted(deleting)).toBe(true);

    // Here the operator would delete the Proxmox guest, then let go.
    await removeFinalizer(fx.client.proxmoxVMs, deleting, FINALIZER);
    expect(await fx.client.proxmoxVMs.find(ref)).toBeUndefined();
  });
});
