export { OrganizationRepository } from './organization.repository.js';
export { organizationRoutes } from './organization.routes.js';
export { OrganizationService } from './organization.service.js';
export type { MembershipWithOrganization } from './organization.repository.js';
export {
  memberRole,
  organizationType,
  organizationView,
  toOrganizationView,
} from './organization.schemas.js';
