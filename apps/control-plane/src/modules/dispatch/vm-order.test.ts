import { describe, expect, it } from 'vitest';

import { cloudInitSecretOf, parseCloudInit, proxmoxVmOf, vmIdOfName, type WantedVm } from './vm-order.js';

const ID = '0b8e1f2a-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const NAMESPACE = '9b2d7c1e-0a4f-4e8b-b6c3-5d7e8f9a0b1c-operator';

function wanted(overrides: Partial<WantedVm> = {}): WantedVm {
  return {
    id: ID,
    agentId: '9b2d7c1e-0a4f-4e8b-b6c3-5d7e8f9a0b1c',
    desiredState: 'PRESENT',
    desiredPowerState: 'Running',
    rebootRequestedAt: null,
    tags: ['web'],
    spec: { vmId: ID, node: 'pve1', vmid: 1042, memoryMiB: 2048 },
    cloudInitCiphertext: 'v1.sealed',
    generation: 3,
    dispatchAttempts: 0,
    reinstallPending: false,
    reinstallGeneration: 0,
    mustMove: false,
    ...overrides,
  };
}

describe('proxmoxVmOf', () => {
  it('adds the wishes that change after the order to the spec as ordered', () => {
    const vm = proxmoxVmOf(
      wanted({ desiredPowerState: 'Stopped', rebootRequestedAt: new Date('2026-12-01T10:00:00Z') }),
      NAMESPACE,
    );
    expect(vm).toEqual({
      apiVersion: 'vm.noderings.com/v1alpha1',
      kind: 'ProxmoxVM',
      metadata: { name: `nr-${ID}`, namespace: NAMESPACE, labels: { 'vm.noderings.com/vm-id': ID } },
      spec: {
        vmId: ID,
        node: 'pve1',
        vmid: 1042,
        memoryMiB: 2048,
        cloudInitSecretRef: `nr-${ID}-cloudinit`,
        powerState: 'Stopped',
        rebootRequestedAt: '2026-12-01T10:00:00.000Z',
        tags: ['web'],
      },
    });
  });

  it('names the guest after the row, whatever the stored spec says', () => {
    const vm = proxmoxVmOf(wanted({ spec: { vmId: 'something-else', node: 'pve1' } }), NAMESPACE);
    expect(vm.spec.vmId).toBe(ID);
    expect(vm.spec).not.toHaveProperty('rebootRequestedAt');
  });
});

describe('cloudInitSecretOf', () => {
  const decode = (data: Record<string, string> | undefined) =>
    Object.fromEntries(Object.entries(data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));

  it('uses the keys the operator reads and leaves empty documents out', () => {
    const secret = cloudInitSecretOf(
      ID,
      NAMESPACE,
      { userData: '#cloud-config\n', vendorData: '', networkData: 'version: 2\n' },
      undefined,
    );
    expect(decode(secret.data)).toEqual({ 'user-data': '#cloud-config\n', 'network-config': 'version: 2\n' });
    expect(secret.metadata).toEqual({
      name: `nr-${ID}-cloudinit`,
      namespace: NAMESPACE,
      labels: { 'vm.noderings.com/vm-id': ID },
      ownerReferences: [],
    });
  });

  it('is owned by its ProxmoxVM once that exists', () => {
    const owner = { ...proxmoxVmOf(wanted(), NAMESPACE) };
    owner.metadata = { ...owner.metadata, uid: 'uid-1' };
    expect(cloudInitSecretOf(ID, NAMESPACE, { userData: 'x' }, owner).metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'vm.noderings.com/v1alpha1',
        kind: 'ProxmoxVM',
        name: `nr-${ID}`,
        uid: 'uid-1',
        controller: true,
      },
    ]);
  });
});

describe('parseCloudInit', () => {
  it('reads what the order flow seals', () => {
    expect(parseCloudInit(JSON.stringify({ userData: 'u', vendorData: 'v' }))).toEqual({
      userData: 'u',
      vendorData: 'v',
    });
  });

  it.each(['[]', 'null', '{}', '{"userData": 1}', '{"userData": "u", "networkData": 2}', 'not json'])(
    'refuses %s',
    (text) => {
      expect(() => parseCloudInit(text)).toThrow();
    },
  );
});

describe('vmIdOfName', () => {
  it('knows our names only', () => {
    expect(vmIdOfName(`nr-${ID}`)).toBe(ID);
    expect(vmIdOfName(`nr-${ID}-cloudinit`)).toBeUndefined();
    expect(vmIdOfName('web-1')).toBeUndefined();
  });
});
