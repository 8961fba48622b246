export { OrganizationRepository } from './organization.repository.js';
export type { MembershipWithOrganization } from './organization.repository.js';
export {
  memberRole,
  organizationType,
  organizationView,
  toOrganizationView,
} from './organization.schemas.js';
export { registerOrganizationModule } from './organization.module.js';
