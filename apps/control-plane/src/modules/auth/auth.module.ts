import type { FastifyInstance } from 'fastify';

import type { PasswordHasher } from '../../crypto/password-hasher.js';
import { installAuthentication } from '../../http/authentication.js';
import type { ModuleContext } from '../module.js';
import type { AuthServiceDeps } from './auth.service.js';
import { AuthRepository } from './auth.repository.js';
import { authRoutes } from './auth.routes.js';
import { AuthService } from './auth.service.js';
import type { RegistrationLimits } from './auth-throttles.js';
import { ThrottleRepository } from './throttle.repository.js';

export interface AuthModuleDeps extends ModuleContext {
  readonly memberships: AuthServiceDeps['memberships'];
  readonly passwords: PasswordHasher;
  readonly sessionTtlMs: number;
  readonly registrationLimits: RegistrationLimits;
}

/** Who is calling: every request's credentials are resolved here; sign-up, sign-in, sessions and tokens. */
export async function registerAuthModule(
  app: FastifyInstance,
  deps: AuthModuleDeps,
): Promise<{ readonly auth: AuthService; readonly users: AuthRepository }> {
  const users = new AuthRepository(deps.db);
  installAuthentication(app, { credentials: users, now: deps.now });
  const auth = new AuthService({
    auth: users,
    throttles: new ThrottleRepository(deps.db),
    memberships: deps.memberships,
    passwords: deps.passwords,
    sessionTtlMs: deps.sessionTtlMs,
    registrationLimits: deps.registrationLimits,
    now: deps.now,
  });
  await app.register(authRoutes, { auth });
  return { auth, users };
}
