export type { Node } from './node.repository.js';
export { NodeRepository } from './node.repository.js';
export { nodeRoutes } from './node.routes.js';
export { NodeService } from './node.service.js';
