import type { ThrottleRule } from './attempt-throttle.js';
import type { ThrottleKey } from './throttle.repository.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Who is slowed when sign-ins fail, and how much (ADR 0019). An address is an IPv4 address or an IPv6
 * /64 (`clientAddressKey`); a known address is one the account has signed in from before.
 */
export const SIGN_IN_THROTTLE = {
  /**
   * One account from one address, known or not: the owner mistyping, or a stranger guessing. A stranger
   * here never slows the owner elsewhere.
   */
  accountAddress: {
    kind: 'backoff',
    freeAttempts: 5,
    baseDelayMs: SECOND,
    maxDelayMs: 15 * MINUTE,
    forgetAfterMs: DAY,
  },
  /**
   * One account from every address it is not known at: guessing spread over many addresses. Once it
   * waits, only known addresses get through: that is the account's lock, which a sign-in from a known
   * address lifts (as would a password reset link: it forgets `signInKeys(...).account`).
   */
  account: { kind: 'backoff', freeAttempts: 20, baseDelayMs: SECOND, maxDelayMs: HOUR, forgetAfterMs: DAY },
  /**
   * One address across the accounts it is not known for: password spraying. The wait stays short, so an
   * office behind one NAT address is slowed, never locked out (and its people pass at their own accounts).
   */
  address: {
    kind: 'backoff',
    freeAttempts: 50,
    baseDelayMs: SECOND,
    maxDelayMs: MINUTE,
    forgetAfterMs: HOUR,
  },
} as const satisfies Record<string, ThrottleRule>;

/** How long an address stays known after the account's last sign-in from it. */
export const KNOWN_ADDRESS_TTL_MS = 180 * DAY;

/** Counters untouched for this long are stale under every sign-in rule and may be deleted. */
export const THROTTLE_MEMORY_MS = DAY;

/** The counters of one sign-in attempt, in the order they are locked. */
export function signInKeys(
  email: string,
  address: string,
): { readonly accountAddress: ThrottleKey; readonly account: ThrottleKey; readonly address: ThrottleKey } {
  return {
    accountAddress: { scope: 'signIn.accountAddress', key: `${email} ${address}` },
    account: { scope: 'signIn.account', key: email },
    address: { scope: 'signIn.address', key: address },
  };
}

/** Registrations per address and overall: fixed windows, so a burst of sign-ups passes and a script does not. */
export interface RegistrationLimits {
  readonly perAddress: Extract<ThrottleRule, { kind: 'window' }>;
  readonly overall: Extract<ThrottleRule, { kind: 'window' }>;
}

export const DEFAULT_REGISTRATION_LIMITS: RegistrationLimits = {
  perAddress: { kind: 'window', limit: 10, windowMs: HOUR },
  overall: { kind: 'window', limit: 300, windowMs: 10 * MINUTE },
};

export function registrationKeys(address: string): {
  readonly perAddress: ThrottleKey;
  readonly overall: ThrottleKey;
} {
  return {
    perAddress: { scope: 'register.address', key: address },
    overall: { scope: 'register.all', key: '*' },
  };
}
