export { CandidateNodeRepository, type CandidateNode, type NodeUsage } from './candidate-node.repository.js';
export { ClaimRepository } from './claim.repository.js';
export { ClaimService } from './claim.service.js';
export { capacityStateOf, nodeRefusalReasons } from './node-eligibility.js';
export { PlacementExhaustedError } from './placement-exhausted-error.js';
export { PlacementPolicyRepository } from './placement-policy.repository.js';
export { placementPolicyRoutes } from './placement-policy.routes.js';
export { PlacementPolicyService } from './placement-policy.service.js';
