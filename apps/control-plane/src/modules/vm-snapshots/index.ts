export { VmSnapshotRepository } from './vm-snapshot.repository.js';
export { vmSnapshotRoutes } from './vm-snapshot.routes.js';
export { VmSnapshotService } from './vm-snapshot.service.js';
