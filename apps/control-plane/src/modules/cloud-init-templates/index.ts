export { CloudInitCompileService } from './cloud-init-compile.service.js';
export { CloudInitTemplateRepository } from './cloud-init-template.repository.js';
export { cloudInitTemplateRoutes } from './cloud-init-template.routes.js';
export { cloudConfigWarningView } from './cloud-init-template.schemas.js';
export { CloudInitTemplateService } from './cloud-init-template.service.js';
