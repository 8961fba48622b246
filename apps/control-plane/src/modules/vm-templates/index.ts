export { VmTemplateRepository } from './vm-template.repository.js';
export { vmTemplateRoutes } from './vm-template.routes.js';
export { VmTemplateService } from './vm-template.service.js';
