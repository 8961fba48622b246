export { registerDeviceAuthorizationModule } from './device-authorization.module.js';
