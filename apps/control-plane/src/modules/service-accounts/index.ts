export { registerServiceAccountModule } from './service-account.module.js';
