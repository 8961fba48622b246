export type { Node } from './node.repository.js';
export { NodeRepository } from './node.repository.js';
export { NodeService } from './node.service.js';
export { registerNodeModule } from './node.module.js';
