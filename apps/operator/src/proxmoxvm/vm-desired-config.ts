import type { ProxmoxVMSpec } from '@noderings/kube';
import type { VmConfig, VmConfigUpdate } from '@noderings/proxmox';

import { guestName } from '../nr-guard.js';

/** The drive the NoCloud seed ISO is attached on. */
const SEED_DRIVE = 'ide3';
const MANAGED_DESCRIPTION = 'Managed by NodeRings: changes made here are overwritten.';

type Desired = Record<string, string | number>;

/** The config keys a ProxmoxVM decides, as Proxmox would store them. */
export function desiredConfig(spec: ProxmoxVMSpec, seedVolid: string | undefined): Desired {
  const { cpu, network } = spec;
  const desired: Desired = {
    name: guestName(spec.vmId),
    description: MANAGED_DESCRIPTION,
    cores: cpu.cores,
    sockets: cpu.sockets ?? 1,
    memory: spec.memoryMiB,
    net0: netDevice(spec),
    ipconfig0: ipConfig(spec),
  };
  if (cpu.type !== undefined) desired.cpu = cpu.type;
  if (cpu.units !== undefined) desired.cpuunits = cpu.units;
  if (cpu.limit !== undefined && cpu.limit > 0) desired.cpulimit = cpu.limit;
  if (network.nameservers !== undefined && network.nameservers.length > 0) {
    desired.nameserver = network.nameservers.join(' ');
  }
  const tags = canonicalTags(spec.tags ?? []);
  if (tags.length > 0) desired.tags = tags.join(';');
  if (seedVolid !== undefined) desired[SEED_DRIVE] = `${seedVolid},media=cdrom`;
  return desired;
}

/** Keys the spec may leave out, removed from the guest when they are set there. */
const REMOVABLE = ['cpulimit', 'nameserver', 'tags'] as const;

/** The update that brings `current` to `desired`, or undefined when nothing differs. */
export function configUpdate(current: VmConfig, desired: Desired): VmConfigUpdate | undefined {
  const update: VmConfigUpdate = {};
  for (const [key, value] of Object.entries(desired)) {
    if (!sameValue(key, current[key], value)) update[key] = key === 'tags' ? String(value).split(';') : value;
  }
  const remove = REMOVABLE.filter((key) => desired[key] === undefined && current[key] !== undefined);
  if (remove.length > 0) update.delete = remove;
  return Object.keys(update).length === 0 ? undefined : update;
}

function netDevice(spec: ProxmoxVMSpec): string {
  const n = spec.network;
  const parts = [
    `${n.model ?? 'virtio'}=${n.mac.toUpperCase()}`,
    `bridge=${n.bridge ?? 'vmbr0'}`,
    'firewall=1',
  ];
  if (n.vlan !== undefined && n.vlan > 0) parts.push(`tag=${n.vlan}`);
  if (n.rateLimitMBps !== undefined && n.rateLimitMBps > 0) parts.push(`rate=${n.rateLimitMBps}`);
  return parts.join(',');
}

function ipConfig(spec: ProxmoxVMSpec): string {
  const { ipv4, ipv6 } = spec.network;
  const parts = [`ip=${ipv4.address}`, `gw=${ipv4.gateway}`];
  if (ipv6 !== undefined) parts.push(`ip6=${ipv6.address}`, `gw6=${ipv6.gateway}`);
  return parts.join(',');
}

/** Proxmox's canonical tag list: lower case, sorted, without duplicates. */
function canonicalTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => t.trim().toLowerCase()).filter((t) => t !== ''))].sort();
}

/** Compares by meaning, so that Proxmox's canonical spelling of a value is not taken for drift. */
function sameValue(key: string, current: string | number | undefined, desired: string | number): boolean {
  if (current === undefined) return false;
  if (typeof desired === 'number') return Number(current) === desired;
  if (key === 'tags') return canonicalTags(String(current).split(/[;, ]/)).join(';') === desired;
  if (key === 'nameserver') return String(current).split(/\s+/).join(' ') === desired;
  if (/^(net|ipconfig|ide|scsi|sata|virtio)\d+$/.test(key))
    return samePropertyString(String(current), desired);
  return String(current).trim() === desired.trim();
}

function samePropertyString(a: string, b: string): boolean {
  const parse = (text: string): string =>
    text
      .split(',')
      .map((part) => part.trim().toLowerCase())
      .filter((part) => part !== '' && !part.startsWith('size='))
      .sort()
      .join(',');
  return parse(a) === parse(b);
}
