import { expectRecord, optionalString, requireString } from './pve-record.js';
import type { PveRecord } from './pve-record.js';

/** One entry of `/cluster/resources`: a node, guest (`qemu`, `lxc`), storage, pool or SDN zone. */
export interface PveResource {
  /** `node/pve1`, `qemu/100`, `lxc/101`, `storage/pve1/local`, … */
  readonly id: string;
  readonly type: string;
  readonly fields: PveRecord;
}

export function readResources(data: readonly unknown[]): PveResource[] {
  return data.map((entry, index) => {
    const fields = expectRecord(entry, `/cluster/resources[${index}]`);
    const where = `/cluster/resources[${index}]`;
    return { id: requireString(fields, 'id', where), type: requireString(fields, 'type', where), fields };
  });
}

export function isGuest(resource: Pick<PveResource, 'type'>): boolean {
  return resource.type === 'qemu' || resource.type === 'lxc';
}

/**
 * `name`, `node` and `type` of a guest. NodeRings puts them on every per-guest series (upstream has them
 * on `pve_guest_info` only), so that relabel rules can keep the guests named `NR-…` and drop the rest. A
 * guest without a name yet (a fresh clone, until pvestatd's next broadcast) gets no `name` label, and the
 * rules drop it.
 */
export function guestIdentityLabels(resource: PveResource): Record<string, string> {
  const name = optionalString(resource.fields, 'name');
  const node = optionalString(resource.fields, 'node');
  return {
    ...(name === undefined ? {} : { name }),
    ...(node === undefined ? {} : { node }),
    type: resource.type,
  };
}

/** The identity labels of every guest, by id, for series built from other answers than the resources. */
export function guestLabelsById(
  resources: readonly PveResource[],
): ReadonlyMap<string, Record<string, string>> {
  return new Map(resources.filter(isGuest).map((r) => [r.id, guestIdentityLabels(r)]));
}
