import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ProxmoxVM } from '@noderings/kube';
import { findCondition, keyOf, parseObjectKey } from '@noderings/kube';
import type { ProxmoxClient } from '@noderings/proxmox';

import type { Env } from '../operator-fixture.test-support.js';
import {
  callsMatching,
  createVm,
  eventually,
  proxmoxClientFor,
  startEnv,
} from '../operator-fixture.test-support.js';

let env: Env;
let pve: ProxmoxClient;

beforeAll(async () => {
  env = await startEnv();
  pve = proxmoxClientFor(env);
  await env.startOperator();
});

afterAll(async () => {
  await pve.close();
  await env.close();
});

async function current(vm: ProxmoxVM): Promise<ProxmoxVM> {
  return env.kube.proxmoxVMs.get(parseObjectKey(keyOf(vm)));
}

async function until(vm: ProxmoxVM, check: (vm: ProxmoxVM) => void, timeoutMs?: number): Promise<ProxmoxVM> {
  return eventually(async () => {
    const now = await current(vm);
    check(now);
    return now;
  }, timeoutMs);
}

describe('ProxmoxVM lifecycle', () => {
  it('creates, configures, powers, reboots, changes and deletes the guest', async () => {
    const vm = await createVm(env);
    const { vmid, vmId } = vm.spec;
    const running = await until(vm, (v) => {
      expect(v.status?.phase).toBe('Running');
    });
    expect(running.metadata?.finalizers).toContain('vm.noderings.com/proxmox-guest');
    expect(running.status).toMatchObject({
      vmid,
      node: 'pve1',
      mac: vm.spec.network.mac,
      powerState: 'Running',
    });
    expect(running.status?.taskRef).toBeUndefined();
    for (const type of ['Provisioned', 'PowerStateSynced', 'Ready']) {
      expect(findCondition(running.status?.conditions, type)).toMatchObject({
        status: 'True',
        observedGeneration: running.metadata?.generation,
      });
    }

    const config = await pve.getVmConfig('pve1', vmid);
    expect(config).toMatchObject({
      name: `NR-${vmId}`,
      cores: 2,
      sockets: 1,
      cpu: 'host',
      cpuunits: 1024,
      tags: 'customer-a;customer-b',
    });
    expect(Number(config.memory)).toBe(2048);
    const net0 = String(config.net0).split(',');
    expect(net0).toEqual(
      expect.arrayContaining([
        `virtio=${vm.spec.network.mac}`,
        'bridge=vmbr0',
        'firewall=1',
        'tag=42',
        'rate=12',
      ]),
    );
    const { ipv4, ipv6 } = vm.spec.network;
    expect(String(config.ipconfig0).split(',').sort()).toEqual(
      [
        `ip=${ipv4.address}`,
        `gw=${ipv4.gateway}`,
        `ip6=${ipv6?.address ?? ''}`,
        `gw6=${ipv6?.gateway ?? ''}`,
      ].sort(),
    );
    expect(config.nameserver).toBe('203.0.113.53 2001:db8::53');
    expect(config.description).toContain('NodeRings');
    expect(String(config.scsi0)).toContain('size=40G');
    expect(String(config.ide3)).toContain(`local:iso/nr-${vmId}-cloudinit.iso`);
    const seed = await env.sim<{ source: string; files: Record<string, string> }>(
      'GET',
      `/sim/vms/${vmid}/cloudinit`,
    );
    expect(seed.source).toBe('iso');
    expect(seed.files['user-data']).toContain('#cloud-config');
    expect(seed.files['meta-data']).toContain(`instance-id: ${vmId}`);
    expect(seed.files['network-config']?.toLowerCase()).toContain(
      `macaddress: ${vm.spec.network.mac.toLowerCase()}`,
    );
    expect(seed.files['network-config']).toContain('203.0.113.53');
    expect((await pve.getVmStatus('pve1', vmid)).status).toBe('running');
    expect(await callsMatching(env, 'POST', /\/clone$/)).toHaveLength(1);

    // Stop, then run again.
    await env.kube.proxmoxVMs.mergePatch(parseObjectKey(keyOf(vm)), { spec: { powerState: 'Stopped' } });
    await until(vm, (v) => {
      expect(v.status?.phase).toBe('Stopped');
    });
    expect((await pve.getVmStatus('pve1', vmid)).status).toBe('stopped');
    await env.kube.proxmoxVMs.mergePatch(parseObjectKey(keyOf(vm)), { spec: { powerState: 'Running' } });
    await until(vm, (v) => {
      expect(v.status?.phase).toBe('Running');
    });

    // CPU and memory wait for a reboot; the reboot token applies them.
    await env.kube.proxmoxVMs.mergePatch(parseObjectKey(keyOf(vm)), {
      spec: { cpu: { cores: 4 }, memoryMiB: 4096 },
    });
    await until(vm, (v) => {
      expect(findCondition(v.status?.conditions, 'ConfigPending')?.status).toBe('True');
    });
    expect((await pve.getVmConfig('pve1', vmid, { current: true })).cores).toBe(2);
    const requestedAt = new Date().toISOString();
    await env.kube.proxmoxVMs.mergePatch(parseObjectKey(keyOf(vm)), {
      spec: { rebootRequestedAt: requestedAt },
    });
    await until(vm, (v) => {
      expect(v.status?.lastRebootAt).toBe(requestedAt);
      expect(findCondition(v.status?.conditions, 'ConfigPending')?.status).toBe('False');
    });
    const applied = await pve.getVmConfig('pve1', vmid, { current: true });
    expect(applied.cores).toBe(4);
    expect(Number(applied.memory)).toBe(4096);
    expect(await callsMatching(env, 'POST', new RegExp(`/qemu/${vmid}/status/reboot$`))).toHaveLength(1);

    // Delete: guest, disks and seed go, then the object.
    await env.kube.proxmoxVMs.delete(parseObjectKey(keyOf(vm)));
    await eventually(async () => {
      expect(await env.kube.proxmoxVMs.find(parseObjectKey(keyOf(vm)))).toBeUndefined();
    });
    expect((await pve.getClusterResources('vm')).some((r) => r.type === 'qemu' && r.vmid === vmid)).toBe(
      false,
    );
    const images = await pve.getStorageContent('pve1', 'local-lvm', {});
    expect(images.filter((v) => v.vmid === vmid)).toEqual([]);
    const isos = await pve.getStorageContent('pve1', 'local', { content: 'iso' });
    expect(isos.some((v) => v.volid.includes(vmId))).toBe(false);
  });
});
