import type { Transaction } from 'kysely';

import { newGeneration } from '../../db/new-generation.js';
import type { Database } from '../../db/schema.js';

/**
 * Counts a new generation of each VM that is live, which the dispatcher then applies at once: the columns
 * the VM module's own changes write. Rows are locked in id order, as every bump does, so that two bumps of
 * overlapping VMs never wait on each other. Answers the VMs bumped.
 */
export async function bumpVmGenerations(
  tx: Transaction<Database>,
  vmIds: readonly string[],
): Promise<string[]> {
  if (vmIds.length === 0) return [];
  const rows = await tx
    .updateTable('virtual_machines')
    .set(newGeneration())
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('virtual_machines')
        .select('id')
        .where('id', 'in', vmIds)
        .where('desired_state', '=', 'PRESENT')
        .orderBy('id')
        .forNoKeyUpdate(),
    )
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}
