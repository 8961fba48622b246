import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCondition } from './condition.js';
import type { ProxmoxVMStatus } from './crd-types.js';
import type { Fixture } from './kube-sim-fixture.test-support.js';
import { proxmoxVM, startFixture } from './kube-sim-fixture.test-support.js';
import { refOf } from './object-key.js';
import { updateStatus } from './status-update.js';

let fx: Fixture;

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => {
  await fx.close();
});

describe('updateStatus against kube-sim', () => {
  it('re-reads and re-applies after a 409 from a concurrent write', async () => {
    const order = proxmoxVM(fx.namespace);
    await fx.client.proxmoxVMs.create(order);
    const ref = refOf(order);
    const seenVersions: (string | undefined)[] = [];

    const stored = await updateStatus(
      fx.client.proxmoxVMs,
      ref,
      async (current): Promise<ProxmoxVMStatus> => {
        seenVersions.push(current.metadata?.resourceVersion);
        if (seenVersions.length === 1) {
          // Someone else writes between our read and our write.
          await fx.client.proxmoxVMs.mergePatch(ref, {
            metadata: { labels: { 'noderings.com/touched': 'yes' } },
          });
        }
        return {
          ...current.status,
          phase: 'Provisioning',
          conditions: setCondition(
            current.status?.conditions,
            { type: 'Ready', status: 'False', reason: 'Cloning', message: 'clone task running' },
            current.metadata?.generation,
          ),
        };
      },
    );

    expect(seenVersions).toHaveLength(2);
    expect(seenVersions[0]).not.toBe(seenVersions[1]);
    expect(stored.status?.phase).toBe('Provisioning');
    expect(stored.metadata?.labels).toEqual({ 'noderings.com/touched': 'yes' });
  });

  it('writes nothing when the status is already as desired', async () => {
    const order = proxmoxVM(fx.namespace);
    await fx.client.proxmoxVMs.create(order);
    const ref = refOf(order);
    const first = await updateStatus(fx.client.proxmoxVMs, ref, (c) => ({
      ...c.status,
      phase: 'Pending' as const,
    }));
    const second = await updateStatus(fx.client.proxmoxVMs, ref, (c) => ({
      ...c.status,
      phase: 'Pending' as const,
    }));
    expect(second.metadata?.resourceVersion).toBe(first.metadata?.resourceVersion);
  });
});
