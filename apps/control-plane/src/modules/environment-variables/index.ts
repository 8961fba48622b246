export { EnvironmentVariableRepository } from './environment-variable.repository.js';
export { environmentVariableRoutes } from './environment-variable.routes.js';
export { EnvironmentVariableService } from './environment-variable.service.js';
