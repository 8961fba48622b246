import { describe, expect, it, vi } from 'vitest';
import type { ProxmoxVM } from './crd-types.js';
import { ensureFinalizer, removeFinalizer, withFinalizer, withoutFinalizer } from './finalizer.js';
import type { ResourceClient } from './resource-client.js';

const FINALIZER = 'vm.noderings.com/proxmox-guest';

function vm(finalizers?: string[]): ProxmoxVM {
  return {
    metadata: { name: 'nr-x', namespace: 'ns', resourceVersion: '7', ...(finalizers ? { finalizers } : {}) },
    spec: {} as ProxmoxVM['spec'],
  };
}

function fakeClient(): { client: ResourceClient<ProxmoxVM>; replace: ReturnType<typeof vi.fn> } {
  const replace = vi.fn((obj: ProxmoxVM) =>
    Promise.resolve({ ...obj, metadata: { ...obj.metadata, resourceVersion: '8' } }),
  );
  return { client: { replace } as unknown as ResourceClient<ProxmoxVM>, replace };
}

describe('finalizers', () => {
  it('adds a finalizer and keeps the ones other managers set', () => {
    expect(withFinalizer(vm(['other.example/keep']), FINALIZER)?.metadata?.finalizers).toEqual([
      'other.example/keep',
      FINALIZER,
    ]);
  });

  it('reports no change when the finalizer is already there or already gone', () => {
    expect(withFinalizer(vm([FINALIZER]), FINALIZER)).toBeUndefined();
    expect(withoutFinalizer(vm(['other.example/keep']), FINALIZER)).toBeUndefined();
  });

  it('removes only its own finalizer', () => {
    expect(withoutFinalizer(vm([FINALIZER, 'other.example/keep']), FINALIZER)?.metadata?.finalizers).toEqual([
      'other.example/keep',
    ]);
  });

  it('writes only when something changed, guarded by the resourceVersion it read', async () => {
    const { client, replace } = fakeClient();
    const unchanged = vm([FINALIZER]);
    expect(await ensureFinalizer(client, unchanged, FINALIZER)).toBe(unchanged);
    expect(await removeFinalizer(client, vm(), FINALIZER)).toEqual(vm());
    expect(replace).not.toHaveBeenCalled();

    const added = await ensureFinalizer(client, vm(), FINALIZER);
    expect(replace).toHaveBeenCalledOnce();
    expect(replace.mock.calls[0]?.[0]).toMatchObject({
      metadata: { resourceVersion: '7', finalizers: [FINALIZER] },
    });
    expect(added.metadata?.resourceVersion).toBe('8');
  });
});
