export { AuthRepository } from './auth.repository.js';
export { authRoutes } from './auth.routes.js';
export { AuthService } from './auth.service.js';
export { DEFAULT_REGISTRATION_LIMITS, type RegistrationLimits } from './auth-throttles.js';
export { newPasswordProblem } from './password-policy.js';
export { ThrottleRepository } from './throttle.repository.js';
