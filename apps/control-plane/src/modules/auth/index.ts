export { AuthRepository } from './auth.repository.js';
export { authRoutes } from './auth.routes.js';
export { AuthService } from './auth.service.js';
