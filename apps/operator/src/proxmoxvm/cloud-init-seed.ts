import type { ProxmoxVM, Secret } from '@noderings/kube';
import { buildNoCloudSeed } from '@noderings/proxmox';
import { stringify } from 'yaml';

import { OperatorError } from '../operator-error.js';

export function seedFileName(vmId: string): string {
  return `nr-${vmId}-cloudinit.iso`;
}

/**
 * The NoCloud seed ISO of a VM from its cloud-init Secret. The image is deterministic (its date is
 * the object's creation), so an unchanged seed has the same size and need not be uploaded again.
 */
export function buildSeed(vm: ProxmoxVM, secret: Secret | undefined): Buffer {
  const { spec } = vm;
  const where = `Secret ${vm.metadata?.namespace ?? ''}/${spec.cloudInitSecretRef}`;
  if (secret === undefined) throw new OperatorError('CLOUD_INIT_SECRET_NOT_FOUND', `${where} does not exist`);
  const data = Object.fromEntries(
    Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
  );
  const userData = data['user-data'];
  if (userData === undefined || userData === '') {
    throw new OperatorError('CLOUD_INIT_SECRET_INVALID', `${where} has no user-data key`);
  }
  return buildNoCloudSeed({
    userData,
    metaData:
      data['meta-data'] ?? stringify({ 'instance-id': spec.vmId, 'local-hostname': `nr-${spec.vmId}` }),
    networkConfig: data['network-config'] ?? networkConfig(vm),
    ...(data['vendor-data'] === undefined ? {} : { vendorData: data['vendor-data'] }),
    createdAt: new Date(vm.metadata?.creationTimestamp ?? 0),
  });
}

/** A netplan v2 config for the one NIC, matched by its MAC, with the static addresses of the spec. */
function networkConfig(vm: ProxmoxVM): string {
  const { mac, ipv4, ipv6, nameservers } = vm.spec.network;
  const routes = [{ to: '0.0.0.0/0', via: ipv4.gateway }];
  if (ipv6 !== undefined) routes.push({ to: '::/0', via: ipv6.gateway });
  return stringify({
    version: 2,
    ethernets: {
      eth0: {
        match: { macaddress: mac.toLowerCase() },
        'set-name': 'eth0',
        addresses: ipv6 === undefined ? [ipv4.address] : [ipv4.address, ipv6.address],
        routes,
        ...(nameservers === undefined || nameservers.length === 0
          ? {}
          : { nameservers: { addresses: nameservers } }),
      },
    },
  });
}
