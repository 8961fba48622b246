import { sql, type RawBuilder } from 'kysely';

/**
 * The columns that make a change to a dispatched row (a VM, a snapshot, a backup, a console session) a
 * new generation, which the dispatcher carries to the agent cluster at once: every write of wanted state
 * sets them through this, and the dispatcher's leases read them back. With `reinstall`, the VM's guest is
 * to be recreated at that generation.
 */
export function newGeneration(options: { readonly at?: Date; readonly reinstall?: boolean } = {}): {
  readonly generation: RawBuilder<number>;
  readonly reinstall_generation?: RawBuilder<number>;
  readonly next_dispatch_at: RawBuilder<Date>;
  readonly dispatch_attempts: 0;
  readonly updated_at: Date | RawBuilder<Date>;
} {
  const next = sql<number>`generation + 1`;
  return {
    generation: next,
    ...(options.reinstall === true && { reinstall_generation: next }),
    next_dispatch_at: sql<Date>`now()`,
    dispatch_attempts: 0,
    updated_at: options.at ?? sql<Date>`now()`,
  };
}
