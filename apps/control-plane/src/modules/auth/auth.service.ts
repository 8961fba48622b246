import { InvalidArgumentError, ResourceExhaustedError, UnauthenticatedError } from '@noderings/domain';

import { newOpaqueToken } from '../../crypto/opaque-token.js';
import type { PasswordHasher } from '../../crypto/password-hasher.js';
import type { OrganizationType } from '../../db/schema.js';
import { clientAddressKey } from '../../http/client-ip.js';
import type { OrganizationRepository } from '../organizations/organization.repository.js';
import type { AuthRepository, Registered } from './auth.repository.js';
import {
  KNOWN_ADDRESS_TTL_MS,
  registrationKeys,
  signInKeys,
  SIGN_IN_THROTTLE,
  THROTTLE_MEMORY_MS,
  type RegistrationLimits,
} from './auth-throttles.js';
import { newPasswordProblem } from './password-policy.js';
import type { ThrottleRepository } from './throttle.repository.js';

export interface AuthServiceDeps {
  readonly auth: Pick<
    AuthRepository,
    | 'findUserByEmail'
    | 'insertRegistration'
    | 'insertSession'
    | 'revokeToken'
    | 'isKnownAddress'
    | 'rememberAddress'
    | 'ensureStaffUser'
  >;
  readonly throttles: Pick<ThrottleRepository, 'admit' | 'forget' | 'uncount' | 'prune'>;
  readonly memberships: Pick<OrganizationRepository, 'findMembership'>;
  readonly passwords: PasswordHasher;
  readonly sessionTtlMs: number;
  readonly registrationLimits: RegistrationLimits;
  readonly now: () => Date;
}

export interface Registration extends Registered {
  readonly token: string;
}

export interface Login {
  readonly token: string;
  readonly organizationId: string;
  readonly mfaRequired: boolean;
}

export class AuthService {
  /** Verified against when the account does not exist, so a wrong email costs as much time as a wrong password. */
  #decoyHash: Promise<string> | undefined;

  constructor(private readonly deps: AuthServiceDeps) {}

  /**
   * A new account. Throttled per address and overall before anything else, so that neither scripted
   * sign-ups nor probing which emails are taken go fast; the password is checked against NIST's rules.
   */
  async register(input: {
    email: string;
    password: string;
    organizationName: string;
    organizationType: OrganizationType;
    ip: string;
  }): Promise<Registration> {
    const email = input.email.toLowerCase();
    const keys = registrationKeys(clientAddressKey(input.ip));
    const limits = this.deps.registrationLimits;
    const admission = await this.deps.throttles.admit(
      [
        { key: keys.perAddress, rule: limits.perAddress },
        { key: keys.overall, rule: limits.overall },
      ],
      this.deps.now(),
    );
    if (!admission.admitted) {
      throw new ResourceExhaustedError(
        admission.refusedBy === 0
          ? `Too many accounts were registered from this address: try again in ${waitText(admission.retryAfterMs)}.`
          : `Too many accounts are being registered right now: try again in ${waitText(admission.retryAfterMs)}.`,
        { retryAfterSeconds: seconds(admission.retryAfterMs) },
      );
    }
    const weakness = newPasswordProblem(input.password, {
      email,
      organizationName: input.organizationName,
    });
    if (weakness !== undefined)
      throw new InvalidArgumentError(`The password ${weakness}.`, [
        { field: 'password', description: weakness },
      ]);
    const session = newOpaqueToken('nrs');
    const registered = await this.deps.auth.insertRegistration({
      email,
      passwordHash: await this.deps.passwords.hash(input.password),
      organizationName: input.organizationName,
      organizationType: input.organizationType,
      sessionHash: session.hash,
      sessionExpiresAt: this.#sessionExpiry(),
    });
    return { ...registered, token: session.token };
  }

  /**
   * Signs in. The attempt is counted before the password is checked, under the throttles of
   * `SIGN_IN_THROTTLE`: this account from this address always; the account and the address across
   * accounts only when the account has never signed in from here, so a known address passes while
   * strangers wait. A right password forgets the account's counters.
   */
  async login(input: { email: string; password: string; ip: string }): Promise<Login> {
    const email = input.email.toLowerCase();
    const address = clientAddressKey(input.ip);
    const now = this.deps.now();
    const keys = signInKeys(email, address);
    const known = await this.deps.auth.isKnownAddress(
      email,
      address,
      new Date(now.getTime() - KNOWN_ADDRESS_TTL_MS),
    );
    const admission = await this.deps.throttles.admit(
      [
        { key: keys.accountAddress, rule: SIGN_IN_THROTTLE.accountAddress },
        ...(known
          ? []
          : [
              { key: keys.account, rule: SIGN_IN_THROTTLE.account },
              { key: keys.address, rule: SIGN_IN_THROTTLE.address },
            ]),
      ],
      now,
    );
    if (!admission.admitted) {
      throw new ResourceExhaustedError(
        `Too many failed sign-in attempts: try again in ${waitText(admission.retryAfterMs)}.`,
        { retryAfterSeconds: seconds(admission.retryAfterMs) },
      );
    }
    const user = await this.deps.auth.findUserByEmail(email);
    const valid =
      user === undefined
        ? (await this.deps.passwords.verify(await this.#decoy(), input.password)) && false
        : await this.deps.passwords.verify(user.passwordHash, input.password);
    if (!valid || user === undefined) throw new UnauthenticatedError('The email or password is incorrect.');
    await this.deps.throttles.forget([keys.accountAddress, keys.account]);
    if (!known) await this.deps.throttles.uncount(keys.address);
    await this.deps.throttles.prune(new Date(now.getTime() - THROTTLE_MEMORY_MS));
    await this.deps.auth.rememberAddress({
      userId: user.id,
      address,
      at: now,
      staleBefore: new Date(now.getTime() - KNOWN_ADDRESS_TTL_MS),
    });
    const session = newOpaqueToken('nrs');
    await this.deps.auth.insertSession({
      userId: user.id,
      tokenHash: session.hash,
      expiresAt: this.#sessionExpiry(),
    });
    const membership = await this.deps.memberships.findMembership(user.id, undefined);
    return { token: session.token, organizationId: membership?.organization.id ?? '', mfaRequired: false };
  }

  async logout(tokenId: string): Promise<void> {
    await this.deps.auth.revokeToken(tokenId, this.deps.now());
  }

  /** The platform staff account named by the operator of this control plane (`NR_ADMIN_EMAIL`). */
  async bootstrapStaff(email: string, password: string): Promise<void> {
    await this.deps.auth.ensureStaffUser({
      email: email.toLowerCase(),
      passwordHash: await this.deps.passwords.hash(password),
    });
  }

  #sessionExpiry(): Date {
    return new Date(this.deps.now().getTime() + this.deps.sessionTtlMs);
  }

  #decoy(): Promise<string> {
    this.#decoyHash ??= this.deps.passwords.hash('decoy password that nobody has');
    return this.#decoyHash;
  }
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

function waitText(ms: number): string {
  const s = seconds(ms);
  if (s < 120) return `${String(s)} second${s === 1 ? '' : 's'}`;
  return `${String(Math.ceil(s / 60))} minutes`;
}
