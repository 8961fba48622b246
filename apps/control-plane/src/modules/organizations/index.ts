export { OrganizationRepository } from './organization.repository.js';
export { organizationRoutes } from './organization.routes.js';
export { OrganizationService } from './organization.service.js';
