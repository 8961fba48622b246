export type { CredentialRecord } from './auth.repository.js';
export { AuthRepository } from './auth.repository.js';
export { authRoutes } from './auth.routes.js';
export { AuthService, LOGIN_LIMITS } from './auth.service.js';
