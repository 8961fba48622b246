import { randomInt } from 'node:crypto';

import type { FastifyInstance } from 'fastify';

import type { Db } from '../../db/database.js';
import { AllocationRepository, IpAllocationService } from '../ipam/index.js';
import type { ModuleContext } from '../module.js';
import { CandidateNodeRepository } from './candidate-node.repository.js';
import { ClaimRepository } from './claim.repository.js';
import { ClaimService } from './claim.service.js';
import { PlacementPolicyRepository } from './placement-policy.repository.js';
import { placementPolicyRoutes } from './placement-policy.routes.js';
import { PlacementPolicyService } from './placement-policy.service.js';

export interface PlacementModuleDeps extends ModuleContext {
  readonly addresses: IpAllocationService;
  /** Told which provider's free capacity a claim or a release changed. */
  readonly capacityChanged: (providerOrganizationId: string) => void;
}

/** Where a VM order goes: providers' placement policies, and the claims that take capacity and addresses. */
export async function registerPlacementModule(
  app: FastifyInstance,
  deps: PlacementModuleDeps,
): Promise<{ readonly claims: ClaimService; readonly candidates: CandidateNodeRepository }> {
  const policies = new PlacementPolicyRepository(deps.db);
  await app.register(placementPolicyRoutes, { policies: new PlacementPolicyService({ policies }) });
  return {
    claims: newClaimService(deps.db, policies, deps.addresses, deps.capacityChanged),
    candidates: new CandidateNodeRepository(deps.db),
  };
}

/** The claim service alone, for the order flow's tests and benchmarks that drive it without HTTP. */
export function createClaimService(
  db: Db,
  capacityChanged?: (providerOrganizationId: string) => void,
): ClaimService {
  const addresses = new IpAllocationService({ allocations: new AllocationRepository(db) });
  return newClaimService(db, new PlacementPolicyRepository(db), addresses, capacityChanged);
}

function newClaimService(
  db: Db,
  policies: PlacementPolicyRepository,
  addresses: IpAllocationService,
  capacityChanged: ((providerOrganizationId: string) => void) | undefined,
): ClaimService {
  return new ClaimService({
    claims: new ClaimRepository(db),
    policies,
    addresses,
    randomIndex: (bound) => randomInt(bound),
    capacityChanged,
  });
}
