export { ServiceAccountRepository } from './service-account.repository.js';
export { serviceAccountRoutes } from './service-account.routes.js';
export { ServiceAccountService } from './service-account.service.js';
