import {
  isNodePlacementStrategy,
  type NodePlacementStrategy,
  NotFoundError,
  type PlacementPolicy,
} from '@noderings/domain';
import { sql, type Kysely } from 'kysely';

import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { translateViolations } from '../../db/postgres-error.js';

function known(value: string, column: string): NodePlacementStrategy {
  if (!isNodePlacementStrategy(value)) throw new Error(`${column} holds an unknown value: ${value}`);
  return value;
}

/** One policy per organisation; an organisation that never set one has none stored. */
export class PlacementPolicyRepository {
  constructor(private readonly db: Db) {}

  /** Read inside the caller's transaction when given one (a claim), on its own otherwise. */
  async find(organizationId: string, db: Kysely<Database> = this.db): Promise<PlacementPolicy | undefined> {
    const policy = await db
      .selectFrom('node_placement_policies')
      .select('default_strategy')
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    if (policy === undefined) return undefined;
    const overrides = await db
      .selectFrom('node_placement_region_overrides')
      .select(['region_id', 'strategy'])
      .where('organization_id', '=', organizationId)
      .orderBy('position')
      .execute();
    return {
      defaultStrategy: known(policy.default_strategy, 'node_placement_policies.default_strategy'),
      regionOverrides: overrides.map((o) => ({
        regionId: o.region_id,
        strategy: known(o.strategy, 'node_placement_region_overrides.strategy'),
      })),
    };
  }

  /** Which of `regionIds` are the organisation's. */
  async ownRegionIds(organizationId: string, regionIds: readonly string[]): Promise<Set<string>> {
    if (regionIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('regions')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', 'in', regionIds)
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /** Replaces the whole policy, overrides included, in one transaction. */
  async replace(organizationId: string, policy: PlacementPolicy): Promise<PlacementPolicy> {
    return translateViolations(
      this.db.transaction().execute(async (tx) => {
        await tx
          .insertInto('node_placement_policies')
          .values({
            organization_id: organizationId,
            default_strategy: policy.defaultStrategy,
            updated_at: sql<Date>`now()`,
          })
          .onConflict((oc) =>
            oc.column('organization_id').doUpdateSet({
              default_strategy: policy.defaultStrategy,
              updated_at: sql<Date>`now()`,
            }),
          )
          .execute();
        await tx
          .deleteFrom('node_placement_region_overrides')
          .where('organization_id', '=', organizationId)
          .execute();
        if (policy.regionOverrides.length > 0) {
          await tx
            .insertInto('node_placement_region_overrides')
            .values(
              policy.regionOverrides.map((o, position) => ({
                organization_id: organizationId,
                region_id: o.regionId,
                strategy: o.strategy,
                position,
              })),
            )
            .execute();
        }
        const stored = await this.find(organizationId, tx);
        if (stored === undefined) throw new Error('the placement policy just written vanished');
        return stored;
      }),
      {
        // A region deleted since the caller looked.
        foreignKey: () => new NotFoundError('A region of the policy was deleted meanwhile.'),
      },
    );
  }
}
