export { ClaimRepository } from './claim.repository.js';
export { ClaimService } from './claim.service.js';
export { PlacementPolicyRepository } from './placement-policy.repository.js';
export { placementPolicyRoutes } from './placement-policy.routes.js';
export { PlacementPolicyService } from './placement-policy.service.js';
