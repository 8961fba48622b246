export { CloudInitUserDataService } from './cloud-init-user-data.service.js';
export { registerCloudInitUserDataModule } from './cloud-init-user-data.module.js';
