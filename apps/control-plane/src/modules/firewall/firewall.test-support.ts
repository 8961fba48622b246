import { randomUUID } from 'node:crypto';

import { createClaimService } from '../../control-plane.js';
import type { TestControlPlane } from '../../control-plane.test-support.js';
import { createReadyOffer, type ReadyOffer } from '../preflight/preflight.test-support.js';

/** Room for every VM a test file inserts. */
const BIG_NODE = { cpuCores: 256, memoryGib: 2048, storageGib: 100_000 };

export interface TestVm {
  readonly id: string;
  readonly ipv4: string;
  /** A delegated /64 on an offer with IPv6. */
  readonly ipv6: string | undefined;
}

/** A provider's plan on one big node, with IPv4 and (delegated /64) IPv6 addresses to give. */
export function createOfferForVms(t: TestControlPlane): Promise<ReadyOffer> {
  return createReadyOffer(t, { node: BIG_NODE, ipv6: true });
}

/**
 * A VM of the customer on the offer without the order flow: the claim (its addresses, MAC and VMID)
 * through the claim service, then the VM row written straight into the database.
 */
export async function insertVm(
  t: TestControlPlane,
  offer: ReadyOffer,
  clientOrganizationId: string,
  options: { readonly hostname?: string; readonly tags?: readonly string[] } = {},
): Promise<TestVm> {
  const claim = await createClaimService(t.cp.db).claim({
    clientOrganizationId,
    planId: offer.planId,
    claimId: randomUUID(),
  });
  const platform = await t.cp.db
    .selectFrom('platforms')
    .select('agent_id')
    .where('id', '=', offer.seller.platformId)
    .executeTakeFirstOrThrow();
  if (platform.agent_id === null || claim.ipv4 === undefined)
    throw new Error('the offer has no agent or IPv4');
  await t.cp.db
    .insertInto('virtual_machines')
    .values({
      id: claim.id,
      client_organization_id: clientOrganizationId,
      provider_organization_id: claim.providerOrganizationId,
      plan_id: claim.planId,
      agent_id: platform.agent_id,
      node_id: claim.nodeId,
      idempotency_key: claim.id,
      request_fingerprint: '',
      hostname: options.hostname ?? `vm-${claim.vmid}`,
      distro: 'DISTRO_UBUNTU_24_04',
      tags: [...(options.tags ?? [])],
      spec: '{}',
      cloud_init_ciphertext: '',
      updated_at: new Date(),
    })
    .execute();
  return { id: claim.id, ipv4: claim.ipv4.address, ipv6: claim.ipv6?.allocatedCidr };
}

/** Each VM's generation, in the order of `ids`. */
export async function generationsOf(t: TestControlPlane, ids: readonly string[]): Promise<number[]> {
  const rows = await t.cp.db
    .selectFrom('virtual_machines')
    .select(['id', 'generation'])
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r.generation]));
  return ids.map((id) => byId.get(id) ?? -1);
}

/** What the customer's delete does to the row before the provider reports the VM gone. */
export async function markAbsent(t: TestControlPlane, id: string): Promise<void> {
  await t.cp.db
    .updateTable('virtual_machines')
    .set({ desired_state: 'ABSENT' })
    .where('id', '=', id)
    .execute();
}
