export { VmConsoleRepository } from './vm-console.repository.js';
export { vmConsoleRoutes } from './vm-console.routes.js';
export { consoleSecretAssociatedData, VmConsoleService } from './vm-console.service.js';
