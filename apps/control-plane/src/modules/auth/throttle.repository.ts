import { sql } from 'kysely';

import type { Db } from '../../db/database.js';
import {
  admitAttempt,
  emptyThrottleState,
  type ThrottleRule,
  type ThrottleState,
} from './attempt-throttle.js';

/** One counter: a scope (`signIn.account`) and the key in it (the normalised email). */
export interface ThrottleKey {
  readonly scope: string;
  readonly key: string;
}

/** Admitted, or refused by the check at `refusedBy` (its index among the checks) for `retryAfterMs`. */
export type Admission =
  | { readonly admitted: true }
  | { readonly admitted: false; readonly refusedBy: number; readonly retryAfterMs: number };

/** Thrown inside the admission's transaction to roll every counter of a refused attempt back. */
class Refused extends Error {}

/** At most this many stale counters are deleted at a time, so that pruning never holds a request up. */
const PRUNE_BATCH = 500;

/**
 * Attempt counters shared by every replica. `admit` decides and counts in one transaction under the
 * counters' row locks, taken in the order given (callers always give scopes in one order, so two
 * admissions never wait on each other in a cycle): however many attempts arrive at once, each sees the
 * count the one before it left.
 */
export class ThrottleRepository {
  constructor(private readonly db: Db) {}

  /** Admits the attempt under every rule, or under none: a refusal counts nothing anywhere. */
  async admit(
    checks: readonly { readonly key: ThrottleKey; readonly rule: ThrottleRule }[],
    now: Date,
  ): Promise<Admission> {
    let refusal = { refusedBy: 0, retryAfterMs: 0 };
    try {
      await this.db.transaction().execute(async (tx) => {
        for (const [index, { key, rule }] of checks.entries()) {
          const fresh = emptyThrottleState(now);
          await tx
            .insertInto('auth_throttles')
            .values({
              scope: key.scope,
              key: key.key,
              attempts: 0,
              window_started_at: fresh.windowStartedAt,
              last_attempt_at: fresh.lastAttemptAt,
              next_attempt_at: fresh.nextAttemptAt,
            })
            .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
            .execute();
          const row = await tx
            .selectFrom('auth_throttles')
            .select(['attempts', 'window_started_at', 'last_attempt_at', 'next_attempt_at'])
            .where('scope', '=', key.scope)
            .where('key', '=', key.key)
            .forUpdate()
            .executeTakeFirstOrThrow();
          const state: ThrottleState = {
            attempts: row.attempts,
            windowStartedAt: row.window_started_at,
            lastAttemptAt: row.last_attempt_at,
            nextAttemptAt: row.next_attempt_at,
          };
          const decision = admitAttempt(state, rule, now);
          if (!decision.admitted) {
            refusal = { refusedBy: index, retryAfterMs: decision.retryAfterMs };
            throw new Refused();
          }
          await tx
            .updateTable('auth_throttles')
            .set({
              attempts: decision.state.attempts,
              window_started_at: decision.state.windowStartedAt,
              last_attempt_at: decision.state.lastAttemptAt,
              next_attempt_at: decision.state.nextAttemptAt,
            })
            .where('scope', '=', key.scope)
            .where('key', '=', key.key)
            .execute();
        }
      });
    } catch (e: unknown) {
      if (e instanceof Refused) return { admitted: false, ...refusal };
      throw e;
    }
    return { admitted: true };
  }

  /** Forgets the counters: the guarded work succeeded (a right password), or a lock is lifted. */
  async forget(keys: readonly ThrottleKey[]): Promise<void> {
    for (const key of keys) {
      await this.db
        .deleteFrom('auth_throttles')
        .where('scope', '=', key.scope)
        .where('key', '=', key.key)
        .execute();
    }
  }

  /** Takes back one counted attempt (it turned out to be a success), leaving any wait it set. */
  async uncount(key: ThrottleKey): Promise<void> {
    await this.db
      .updateTable('auth_throttles')
      .set({ attempts: sql<number>`greatest(attempts - 1, 0)` })
      .where('scope', '=', key.scope)
      .where('key', '=', key.key)
      .execute();
  }

  /** Deletes a batch of counters nobody has touched since `before`. */
  async prune(before: Date): Promise<void> {
    await this.db
      .deleteFrom('auth_throttles')
      .where((eb) =>
        eb(
          eb.refTuple('scope', 'key'),
          'in',
          eb
            .selectFrom('auth_throttles')
            .select(['scope', 'key'])
            .where('last_attempt_at', '<', before)
            .limit(PRUNE_BATCH)
            .$asTuple('scope', 'key'),
        ),
      )
      .execute();
  }
}
