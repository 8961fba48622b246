export { SshKeyRepository } from './ssh-key.repository.js';
export { sshKeyRoutes } from './ssh-key.routes.js';
export { SshKeyService } from './ssh-key.service.js';
