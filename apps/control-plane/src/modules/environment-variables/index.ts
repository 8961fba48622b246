export { EnvironmentVariableRepository } from './environment-variable.repository.js';
export { EnvironmentVariableService } from './environment-variable.service.js';
export { registerEnvironmentVariableModule } from './environment-variable.module.js';
