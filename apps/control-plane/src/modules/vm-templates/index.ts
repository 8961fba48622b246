export { registerVmTemplateModule } from './vm-template.module.js';
