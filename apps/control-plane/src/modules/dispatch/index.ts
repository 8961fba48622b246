export { registerDispatchModule } from './dispatch.module.js';
