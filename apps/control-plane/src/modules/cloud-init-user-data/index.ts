export { CloudInitUserDataRepository } from './cloud-init-user-data.repository.js';
export { cloudInitUserDataRoutes } from './cloud-init-user-data.routes.js';
export { CloudInitUserDataService } from './cloud-init-user-data.service.js';
