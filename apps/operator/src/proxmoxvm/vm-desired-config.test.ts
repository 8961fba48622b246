import { describe, expect, it } from 'vitest';

import type { ProxmoxVMSpec } from '@noderings/kube';
import type { VmConfig } from '@noderings/proxmox';

import { configUpdate, desiredConfig } from './vm-desired-config.js';

const VM_ID = '5a1e0c3b-2d4f-4e6a-8b9c-000000000001';
const SEED = `local:iso/nr-${VM_ID}-cloudinit.iso`;

function spec(patch: (s: ProxmoxVMSpec) => void = () => undefined): ProxmoxVMSpec {
  const s: ProxmoxVMSpec = {
    vmId: VM_ID,
    node: 'pve1',
    vmid: 2001,
    templateVmid: 9000,
    cpu: { cores: 2, sockets: 1, type: 'host', units: 1024 },
    memoryMiB: 2048,
    disk: { storage: 'local-lvm', sizeGiB: 40 },
    network: {
      bridge: 'vmbr0',
      model: 'virtio',
      vlan: 42,
      mac: 'bc:24:11:00:10:01',
      rateLimitMBps: 12,
      ipv4: { address: '203.0.113.1/24', gateway: '203.0.113.254' },
      ipv6: { address: '2001:db8::1/64', gateway: '2001:db8::ffff' },
      nameservers: ['203.0.113.53', '2001:db8::53'],
    },
    cloudInitSecretRef: `nr-${VM_ID}-cloudinit`,
    tags: ['Customer-B', 'customer-a', 'customer-a'],
  };
  patch(s);
  return s;
}

/** The guest's config the way Proxmox returns it after the desired config was applied. */
function canonicalConfig(): VmConfig {
  return {
    name: `NR-${VM_ID}`,
    description: 'Managed by NodeRings: changes made here are overwritten.\n',
    cores: 2,
    sockets: 1,
    cpu: 'host',
    cpuunits: 1024,
    memory: '2048',
    // Proxmox reorders property strings and spells the MAC in upper case.
    net0: 'virtio=BC:24:11:00:10:01,bridge=vmbr0,firewall=1,rate=12,tag=42',
    ipconfig0: 'gw=203.0.113.254,gw6=2001:db8::ffff,ip=203.0.113.1/24,ip6=2001:db8::1/64',
    nameserver: '203.0.113.53 2001:db8::53',
    tags: 'customer-a;customer-b',
    ide3: `${SEED},media=cdrom,size=364K`,
    scsi0: 'local-lvm:vm-2001-disk-0,size=40G',
    boot: 'order=scsi0',
    vmgenid: '1c2d3e4f-0000-4000-8000-000000000000',
    digest: 'abc123',
  };
}

describe('desiredConfig', () => {
  it('derives the keys the operator manages from the spec', () => {
    expect(desiredConfig(spec(), SEED)).toEqual({
      name: `NR-${VM_ID}`,
      description: 'Managed by NodeRings: changes made here are overwritten.',
      cores: 2,
      sockets: 1,
      cpu: 'host',
      cpuunits: 1024,
      memory: 2048,
      net0: 'virtio=BC:24:11:00:10:01,bridge=vmbr0,firewall=1,tag=42,rate=12',
      ipconfig0: 'ip=203.0.113.1/24,gw=203.0.113.254,ip6=2001:db8::1/64,gw6=2001:db8::ffff',
      nameserver: '203.0.113.53 2001:db8::53',
      tags: 'customer-a;customer-b',
      ide3: `${SEED},media=cdrom`,
    });
  });

  it('leaves out what the spec leaves out', () => {
    const desired = desiredConfig(
      spec((s) => {
        s.tags = [];
        s.network.nameservers = [];
        s.network.vlan = 0;
        Reflect.deleteProperty(s.network, 'ipv6');
        Reflect.deleteProperty(s.network, 'rateLimitMBps');
      }),
      undefined,
    );
    expect(desired).not.toHaveProperty('tags');
    expect(desired).not.toHaveProperty('nameserver');
    expect(desired).not.toHaveProperty('ide3');
    expect(desired.net0).toBe('virtio=BC:24:11:00:10:01,bridge=vmbr0,firewall=1');
    expect(desired.ipconfig0).toBe('ip=203.0.113.1/24,gw=203.0.113.254');
  });
});

describe('configUpdate', () => {
  it("sees no drift in Proxmox's canonical spelling of the desired config", () => {
    expect(configUpdate(canonicalConfig(), desiredConfig(spec(), SEED))).toBeUndefined();
  });

  it('sees no drift in tags spelled with other separators and case, or extra spaces between nameservers', () => {
    const config = {
      ...canonicalConfig(),
      tags: 'Customer-B,customer-a',
      nameserver: '203.0.113.53  2001:db8::53',
    };
    expect(configUpdate(config, desiredConfig(spec(), SEED))).toBeUndefined();
  });

  const changes: [string, (s: ProxmoxVMSpec) => void, Record<string, unknown>][] = [
    ['more cores', (s) => (s.cpu.cores = 4), { cores: 4 }],
    ['more memory', (s) => (s.memoryMiB = 4096), { memory: 4096 }],
    [
      'another VLAN',
      (s) => (s.network.vlan = 43),
      { net0: 'virtio=BC:24:11:00:10:01,bridge=vmbr0,firewall=1,tag=43,rate=12' },
    ],
    [
      'another address',
      (s) => (s.network.ipv4.address = '203.0.113.2/24'),
      { ipconfig0: 'ip=203.0.113.2/24,gw=203.0.113.254,ip6=2001:db8::1/64,gw6=2001:db8::ffff' },
    ],
    ['another tag', (s) => (s.tags = ['customer-c']), { tags: ['customer-c'] }],
    ['a CPU limit', (s) => (s.cpu.limit = 2), { cpulimit: 2 }],
  ];
  it.each(changes)('updates only what changed: %s', (_name, patch, expected) => {
    expect(configUpdate(canonicalConfig(), desiredConfig(spec(patch), SEED))).toEqual(expected);
  });

  it('removes keys the spec no longer sets', () => {
    const config = { ...canonicalConfig(), cpulimit: '2' };
    const desired = desiredConfig(
      spec((s) => {
        s.tags = [];
        s.network.nameservers = [];
      }),
      SEED,
    );
    expect(configUpdate(config, desired)).toEqual({ delete: ['cpulimit', 'nameserver', 'tags'] });
  });

  it('sets every key on a fresh clone', () => {
    const update = configUpdate(
      { digest: 'd1', name: 'Copy-of-VM-ubuntu', cores: 1, memory: '1024' },
      desiredConfig(spec(), SEED),
    );
    expect(update).toMatchObject({
      name: `NR-${VM_ID}`,
      cores: 2,
      memory: 2048,
      ide3: `${SEED},media=cdrom`,
    });
    expect(update?.tags).toEqual(['customer-a', 'customer-b']);
  });
});
