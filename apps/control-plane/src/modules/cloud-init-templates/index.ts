export { CloudInitCompileService } from './cloud-init-compile.service.js';
export { CloudInitTemplateRepository } from './cloud-init-template.repository.js';
export { cloudConfigWarningView } from './cloud-init-template.schemas.js';
export { CloudInitTemplateService } from './cloud-init-template.service.js';
export { registerCloudInitTemplateModule } from './cloud-init-template.module.js';
