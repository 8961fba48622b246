export { registerInvitationModule } from './invitation.module.js';
