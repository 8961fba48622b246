export { registerVmSnapshotModule } from './vm-snapshot.module.js';
