export { installPreflightTriggers } from './preflight-triggers.js';
export { PreflightRepository } from './preflight.repository.js';
export { preflightRoutes } from './preflight.routes.js';
export { PreflightService } from './preflight.service.js';
export { PreflightWorker } from './preflight.worker.js';
