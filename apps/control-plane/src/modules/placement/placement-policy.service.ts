import {
  DEFAULT_NODE_PLACEMENT_STRATEGY,
  InvalidArgumentError,
  NotFoundError,
  type FieldViolation,
  type PlacementPolicy,
} from '@noderings/domain';

import type { PlacementPolicyRepository } from './placement-policy.repository.js';

/** What an organisation that never set a policy places by. */
const DEFAULT_POLICY: PlacementPolicy = {
  defaultStrategy: DEFAULT_NODE_PLACEMENT_STRATEGY,
  regionOverrides: [],
};

export class PlacementPolicyService {
  constructor(
    private readonly deps: {
      readonly policies: Pick<PlacementPolicyRepository, 'find' | 'ownRegionIds' | 'replace'>;
    },
  ) {}

  async get(organizationId: string): Promise<PlacementPolicy> {
    return (await this.deps.policies.find(organizationId)) ?? DEFAULT_POLICY;
  }

  /** Replaces the policy; every overridden region must be the organisation's (404 otherwise) and appear once. */
  async put(organizationId: string, policy: PlacementPolicy): Promise<PlacementPolicy> {
    const violations = policy.regionOverrides.flatMap((o, i): FieldViolation[] =>
      policy.regionOverrides.findIndex((other) => other.regionId === o.regionId) < i
        ? [{ field: `regionOverrides.${i}.regionId`, description: 'names a region already overridden' }]
        : [],
    );
    if (violations.length > 0)
      throw new InvalidArgumentError(
        violations.map((v) => `${v.field}: ${v.description}`).join('; '),
        violations,
      );
    const regionIds = policy.regionOverrides.map((o) => o.regionId);
    const own = await this.deps.policies.ownRegionIds(organizationId, regionIds);
    const missing = regionIds.find((id) => !own.has(id));
    if (missing !== undefined) throw NotFoundError.of('Region', missing);
    return await this.deps.policies.replace(organizationId, policy);
  }
}
