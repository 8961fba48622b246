export { AuthRepository } from './auth.repository.js';
export { AuthService } from './auth.service.js';
export { DEFAULT_REGISTRATION_LIMITS, type RegistrationLimits } from './auth-throttles.js';
export { newPasswordProblem } from './password-policy.js';
export { registerAuthModule } from './auth.module.js';
