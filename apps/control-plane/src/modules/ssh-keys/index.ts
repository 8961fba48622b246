export { SshKeyRepository } from './ssh-key.repository.js';
export { SshKeyService } from './ssh-key.service.js';
export { registerSshKeyModule } from './ssh-key.module.js';
