export { registerPlatformModule } from './platform.module.js';
