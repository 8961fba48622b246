import { describe, expect, it } from 'vitest';

import {
  macAddressPrefixProblem,
  NODE_SETTING_DEFAULTS,
  nodeNameProblem,
  nodeSettingsViolations,
  networkBridgeProblem,
  networkNameProblem,
  networkVlanIdProblem,
  normalizeMacAddressPrefix,
  overallocatePercentProblem,
  proxmoxCpuTypeProblem,
  storageIdProblem,
  vmidSeedProblem,
  type NodeSettings,
} from './node-settings.js';

const valid: NodeSettings = {
  ...NODE_SETTING_DEFAULTS,
  vmidSeed: 1000,
  vmStorageDestination: 'local-lvm',
  backupStorageDestination: 'local',
  backupStorageCompression: 'BACKUP_STORAGE_COMPRESSION_ZSTD',
};

describe('node names', () => {
  it.each(['pve', 'pve1', 'PVE-node-01', 'a', 'x'.repeat(63)])('accepts %s', (name) => {
    expect(nodeNameProblem(name)).toBeUndefined();
  });
  it.each(['', '-pve', 'pve-', 'pve.example.com', 'pve_1', 'pvé', 'x'.repeat(64), 'pve 1'])(
    'refuses %j',
    (name) => {
      expect(nodeNameProblem(name)).toEqual(expect.any(String));
    },
  );
});

describe('storage ids', () => {
  it.each(['local', 'local-lvm', 'ceph_pool.1', 'NFS-Backup', 'ab'])('accepts %s', (id) => {
    expect(storageIdProblem(id)).toBeUndefined();
  });
  it.each(['', 'a', '1local', 'local-', 'local.', 'local lvm', 'local/lvm', 'local:lvm', 'l'.repeat(65)])(
    'refuses %j',
    (id) => {
      expect(storageIdProblem(id)).toEqual(expect.any(String));
    },
  );
});

describe('network bridges and net devices', () => {
  it.each(['vmbr0', 'vmbr1', 'vmbr0.100', 'br-customers', 'b'.repeat(15)])('accepts bridge %s', (bridge) => {
    expect(networkBridgeProblem(bridge)).toBeUndefined();
  });
  it.each(['', '0vmbr', 'vmbr 0', 'b'.repeat(16)])('refuses bridge %j', (bridge) => {
    expect(networkBridgeProblem(bridge)).toEqual(expect.any(String));
  });
  it.each(['net0', 'net9', 'net31'])('accepts device %s', (device) => {
    expect(networkNameProblem(device)).toBeUndefined();
  });
  it.each(['net32', 'net01', 'net', 'eth0', 'NET0', 'net-1'])('refuses device %j', (device) => {
    expect(networkNameProblem(device)).toEqual(expect.any(String));
  });
});

describe('VLAN ids', () => {
  it.each([0, 1, 100, 4094])('accepts %d', (vlan) => {
    expect(networkVlanIdProblem(vlan)).toBeUndefined();
  });
  it.each([-1, 4095, 1.5, Number.NaN])('refuses %d', (vlan) => {
    expect(networkVlanIdProblem(vlan)).toEqual(expect.any(String));
  });
});

describe('MAC address prefixes', () => {
  it.each(['BC:24:11', 'bc:24:11', '02:00:00', '00:00:00'])('accepts %s', (prefix) => {
    expect(macAddressPrefixProblem(prefix)).toBeUndefined();
  });
  it.each(['BC:24', 'BC:24:11:00', 'BC-24-11', 'BC2411', 'GG:24:11', 'B:24:11', ' BC:24:11'])(
    'refuses the malformed %j',
    (prefix) => {
      expect(macAddressPrefixProblem(prefix)).toMatch(/three hexadecimal octets/);
    },
  );
  it.each(['01:00:5E', 'BD:24:11', 'FF:FF:FF', '33:33:00'])('refuses the multicast %s', (prefix) => {
    expect(macAddressPrefixProblem(prefix)).toMatch(/unicast/);
  });
  it('is upper-cased as Proxmox writes it', () => {
    expect(normalizeMacAddressPrefix('bc:24:1a')).toBe('BC:24:1A');
  });
});

describe('CPU types', () => {
  it.each(['host', 'kvm64', 'x86-64-v2-AES', 'EPYC-Rome', 'custom-my_model', 'Skylake-Server-IBRS'])(
    'accepts %s',
    (cpuType) => {
      expect(proxmoxCpuTypeProblem(cpuType)).toBeUndefined();
    },
  );
  it.each(['', '-host', 'host,flags=+aes', 'host model', 'h'.repeat(65)])('refuses %j', (cpuType) => {
    expect(proxmoxCpuTypeProblem(cpuType)).toEqual(expect.any(String));
  });
});

describe('VMID seeds and overallocation', () => {
  it.each([100, 1000, 999_999_999])('accepts the seed %d', (seed) => {
    expect(vmidSeedProblem(seed)).toBeUndefined();
  });
  it.each([99, 0, -100, 1_000_000_000, 100.5])('refuses the seed %d', (seed) => {
    expect(vmidSeedProblem(seed)).toEqual(expect.any(String));
  });
  it.each([1, 90, 100, 250, 1000])('accepts %d %%', (percent) => {
    expect(overallocatePercentProblem(percent)).toBeUndefined();
  });
  it.each([0, -100, 1001, 150.5])('refuses %d %%', (percent) => {
    expect(overallocatePercentProblem(percent)).toEqual(expect.any(String));
  });
});

describe('a complete set of settings', () => {
  it('has defaults that pass the rules, shared and untagged on vmbr0/net0 with virtio, BC:24:11 and host', () => {
    expect(nodeSettingsViolations(valid)).toEqual([]);
    expect(NODE_SETTING_DEFAULTS).toEqual({
      cpuOverallocatePercent: 100,
      memoryOverallocatePercent: 100,
      storageOverallocatePercent: 100,
      computeType: 'NODE_COMPUTE_TYPE_SHARED',
      networkBridge: 'vmbr0',
      networkName: 'net0',
      networkModel: 'virtio',
      networkVlanId: 0,
      macAddressPrefix: 'BC:24:11',
      proxmoxCpuType: 'host',
    });
  });

  it('names every bad field', () => {
    const violations = nodeSettingsViolations({
      ...valid,
      vmidSeed: 99,
      backupStorageDestination: 'no/such',
      networkVlanId: 4095,
      macAddressPrefix: '01:00:5E',
    });
    expect(violations.map((v) => v.field)).toEqual([
      'vmidSeed',
      'backupStorageDestination',
      'networkVlanId',
      'macAddressPrefix',
    ]);
  });

  it('refuses CPU overallocation on a dedicated node, and allows it on a shared one', () => {
    const dedicated = { ...valid, computeType: 'NODE_COMPUTE_TYPE_DEDICATED' } as const;
    expect(nodeSettingsViolations(dedicated)).toEqual([]);
    expect(nodeSettingsViolations({ ...dedicated, cpuOverallocatePercent: 200 })).toEqual([
      { field: 'cpuOverallocatePercent', description: expect.stringMatching(/dedicated/) as unknown },
    ]);
    expect(nodeSettingsViolations({ ...dedicated, cpuOverallocatePercent: 50 })).toHaveLength(1);
    expect(nodeSettingsViolations({ ...dedicated, memoryOverallocatePercent: 200 })).toEqual([]);
    expect(nodeSettingsViolations({ ...valid, cpuOverallocatePercent: 200 })).toEqual([]);
  });
});
