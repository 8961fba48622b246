export { consoleSecretAssociatedData } from './vm-console.service.js';
export { registerVmConsoleModule } from './vm-console.module.js';
