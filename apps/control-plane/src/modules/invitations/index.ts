export { InvitationRepository } from './invitation.repository.js';
export { invitationRoutes } from './invitation.routes.js';
export { InvitationService } from './invitation.service.js';
