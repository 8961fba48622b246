export { registerPreflightModule } from './preflight.module.js';
