import type { HostSignals } from '@noderings/fleet';

/**
 * What an enrollment does to the live record that already holds its (environment, agent type, name),
 * per seed 004: the same key is the same agent coming back (it crashed before saving its state); another
 * key takes the record over only when the record has been quiet for five minutes and the caller presents
 * a host signal stored on it (a pod whose data directory moved, on the same host). Anything else is the
 * 409 loop: the agent retries until the record goes quiet or is released.
 */

export const REBIND_QUIET_MS = 5 * 60_000;

/** The parts of a live record the decision reads. */
export interface HeldIdentity {
  readonly publicKey: string;
  /** When the record's current key was bound (its enrollment, or its last re-bind). */
  readonly keyBoundAt: Date;
  /** The last heartbeat or message, null when never heard from. */
  readonly lastSeenAt: Date | null;
  readonly machineId: string | null;
  readonly systemUuid: string | null;
}

export type EnrollmentDecision =
  | { readonly kind: 'same-key' }
  | { readonly kind: 'rebind' }
  | {
      readonly kind: 'in-use';
      /** `live`: heard from within five minutes; `no-signal`: quiet, but no host signal matches. */
      readonly reason: 'live' | 'no-signal';
      readonly quietSince: Date;
    };

/** Since when nothing was heard from the record's current holder. */
function quietSince(held: HeldIdentity): Date {
  const { lastSeenAt, keyBoundAt } = held;
  return lastSeenAt !== null && lastSeenAt.getTime() > keyBoundAt.getTime() ? lastSeenAt : keyBoundAt;
}

/** DMI UUIDs are compared without regard to case (firmware writes either). */
export function normalizeSystemUuid(uuid: string | undefined): string | undefined {
  return uuid?.toLowerCase();
}

export function decideEnrollment(
  held: HeldIdentity,
  caller: { readonly publicKey: string; readonly hostSignals: HostSignals },
  now: Date,
): EnrollmentDecision {
  if (held.publicKey === caller.publicKey) return { kind: 'same-key' };
  const since = quietSince(held);
  if (now.getTime() - since.getTime() < REBIND_QUIET_MS)
    return { kind: 'in-use', reason: 'live', quietSince: since };
  const { machineId, systemUuid } = caller.hostSignals;
  const sameMachine = machineId !== undefined && machineId === held.machineId;
  const sameBoard =
    systemUuid !== undefined &&
    held.systemUuid !== null &&
    normalizeSystemUuid(systemUuid) === normalizeSystemUuid(held.systemUuid);
  return sameMachine || sameBoard
    ? { kind: 'rebind' }
    : { kind: 'in-use', reason: 'no-signal', quietSince: since };
}
