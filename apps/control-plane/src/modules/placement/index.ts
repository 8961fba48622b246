export { CandidateNodeRepository, type CandidateNode, type NodeUsage } from './candidate-node.repository.js';
export { ClaimService } from './claim.service.js';
export { capacityStateOf, nodeRefusalReasons } from './node-eligibility.js';
export { PlacementExhaustedError } from './placement-exhausted-error.js';
export { registerPlacementModule } from './placement.module.js';
export { createClaimService } from './placement.module.js';
