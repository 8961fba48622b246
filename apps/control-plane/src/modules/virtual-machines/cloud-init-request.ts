import type { SecretBox } from '../../crypto/secret-box.js';

/**
 * What a VM's cloud-init is compiled from, as the order (or the last reinstall) gave it: kept sealed
 * beside the compiled documents, which hold as much (the password only as its hash), so that an order
 * retried on another node is compiled again for that node's network and template.
 */
export interface CloudInitRequest {
  readonly hostname: string;
  readonly sshKeyIds: readonly string[];
  readonly passwordHash?: string | undefined;
  readonly userData?: string | undefined;
}

function associatedData(vmId: string): string {
  return `virtual-machines/${vmId}/cloud-init-request`;
}

export function sealCloudInitRequest(
  box: Pick<SecretBox, 'seal'>,
  vmId: string,
  request: CloudInitRequest,
): string {
  return box.seal(JSON.stringify(request), associatedData(vmId));
}

/** The request, or undefined for a VM ordered before requests were kept. */
export function openCloudInitRequest(
  box: Pick<SecretBox, 'open'>,
  vmId: string,
  ciphertext: string,
): CloudInitRequest | undefined {
  if (ciphertext === '') return undefined;
  const value: unknown = JSON.parse(box.open(ciphertext, associatedData(vmId)));
  if (typeof value !== 'object' || value === null) throw new TypeError('cloud-init request is not an object');
  const { hostname, sshKeyIds, passwordHash, userData } = value as Record<string, unknown>;
  if (typeof hostname !== 'string' || !Array.isArray(sshKeyIds))
    throw new TypeError('cloud-init request has no hostname or sshKeyIds');
  return {
    hostname,
    sshKeyIds: sshKeyIds.filter((k): k is string => typeof k === 'string'),
    ...(typeof passwordHash === 'string' && { passwordHash }),
    ...(typeof userData === 'string' && { userData }),
  };
}
