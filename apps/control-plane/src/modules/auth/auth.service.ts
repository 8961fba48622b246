import { AlreadyExistsError, ResourceExhaustedError, UnauthenticatedError } from '@noderings/domain';

import { newOpaqueToken } from '../../crypto/opaque-token.js';
import type { PasswordHasher } from '../../crypto/password-hasher.js';
import { isUniqueViolation } from '../../db/postgres-error.js';
import type { OrganizationType } from '../../db/schema.js';
import type { OrganizationRepository } from '../organizations/organization.repository.js';
import type { AuthRepository, Registered } from './auth.repository.js';

/** Failed logins allowed per account and per client address within one window. */
export const LOGIN_LIMITS = { windowMs: 15 * 60_000, perAccount: 5, perAddress: 20 } as const;

export interface AuthServiceDeps {
  readonly auth: Pick<
    AuthRepository,
    | 'findUserByEmail'
    | 'insertRegistration'
    | 'insertSession'
    | 'revokeToken'
    | 'recordLoginAttempt'
    | 'countFailedLogins'
    | 'ensureStaffUser'
  >;
  readonly memberships: Pick<OrganizationRepository, 'findMembership'>;
  readonly passwords: PasswordHasher;
  readonly sessionTtlMs: number;
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

  async register(input: {
    email: string;
    password: string;
    organizationName: string;
    organizationType: OrganizationType;
  }): Promise<Registration> {
    const session = newOpaqueToken('nrs');
    try {
      const registered = await this.deps.auth.insertRegistration({
        email: input.email.toLowerCase(),
        passwordHash: await this.deps.passwords.hash(input.password),
        organizationName: input.organizationName,
        organizationType: input.organizationType,
        sessionHash: session.hash,
        sessionExpiresAt: this.#sessionExpiry(),
      });
      return { ...registered, token: session.token };
    } catch (e: unknown) {
      if (isUniqueViolation(e)) throw new AlreadyExistsError('An account with this email already exists.');
      throw e;
    }
  }

  async login(input: { email: string; password: string; ip: string }): Promise<Login> {
    const email = input.email.toLowerCase();
    const now = this.deps.now();
    const failures = await this.deps.auth.countFailedLogins({
      email,
      ip: input.ip,
      since: new Date(now.getTime() - LOGIN_LIMITS.windowMs),
    });
    if (failures.byEmail >= LOGIN_LIMITS.perAccount || failures.byIp >= LOGIN_LIMITS.perAddress) {
      throw new ResourceExhaustedError('Too many failed sign-in attempts: try again in 15 minutes.');
    }
    const user = await this.deps.auth.findUserByEmail(email);
    const valid =
      user === undefined
        ? (await this.deps.passwords.verify(await this.#decoy(), input.password)) && false
        : await this.deps.passwords.verify(user.passwordHash, input.password);
    await this.deps.auth.recordLoginAttempt({ email, ip: input.ip, succeeded: valid, at: now });
    if (!valid || user === undefined) throw new UnauthenticatedError('The email or password is incorrect.');
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
