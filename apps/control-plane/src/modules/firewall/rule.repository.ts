import { firewallRuleReferences, type FirewallDirection, type FirewallRuleSpec } from '@noderings/domain';
import { sql, type Selectable, type Transaction } from 'kysely';

import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import type { Database } from '../../db/schema.js';
import type { Page, PageResult } from '../../http/pagination.js';

type Tx = Transaction<Database>;

export interface RuleRecord {
  readonly id: string;
  readonly rulesetId: string;
  readonly organizationId: string;
  /** Within its direction, from 0; lower is matched first. */
  readonly position: number;
  readonly rule: FirewallRuleSpec;
}

function toRecord(r: Selectable<Database['firewall_rules']>): RuleRecord {
  return {
    id: r.id,
    rulesetId: r.ruleset_id,
    organizationId: r.organization_id,
    position: r.position,
    rule: r.rule as unknown as FirewallRuleSpec,
  };
}

/** Ingress before egress, as the rules are compiled. */
const DIRECTION_ORDER = sql`direction = 'FIREWALL_DIRECTION_EGRESS'`;

/** Every query is scoped to one organisation: another tenant's rule is simply not found. */
export class RuleRepository {
  constructor(private readonly db: Db) {}

  list(
    organizationId: string,
    rulesetId: string,
    direction: FirewallDirection | undefined,
    page: Page,
  ): Promise<PageResult<RuleRecord>> {
    let query = this.db
      .selectFrom('firewall_rules')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('ruleset_id', '=', rulesetId);
    if (direction !== undefined) query = query.where('direction', '=', direction);
    return listPage(query.orderBy(DIRECTION_ORDER).orderBy('position'), page, (rows) => rows.map(toRecord));
  }

  async find(organizationId: string, id: string, db: Db | Tx = this.db): Promise<RuleRecord | undefined> {
    const row = await db
      .selectFrom('firewall_rules')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async count(tx: Tx, rulesetId: string, direction?: FirewallDirection): Promise<number> {
    let query = tx
      .selectFrom('firewall_rules')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('ruleset_id', '=', rulesetId);
    if (direction !== undefined) query = query.where('direction', '=', direction);
    return Number((await query.executeTakeFirstOrThrow()).n);
  }

  /** The ids of the ruleset's rules of one direction, in position order. */
  async orderedIds(tx: Tx, rulesetId: string, direction: FirewallDirection): Promise<string[]> {
    const rows = await tx
      .selectFrom('firewall_rules')
      .select('id')
      .where('ruleset_id', '=', rulesetId)
      .where('direction', '=', direction)
      .orderBy('position')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Which of the address groups are the organisation's, locked against deletion until the transaction ends. */
  async ownAddressGroups(tx: Tx, organizationId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await tx
      .selectFrom('firewall_address_groups')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', 'in', ids)
      .forShare()
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  async insert(
    tx: Tx,
    input: { organizationId: string; rulesetId: string; position: number; rule: FirewallRuleSpec; now: Date },
  ): Promise<string> {
    const row = await tx
      .insertInto('firewall_rules')
      .values({
        organization_id: input.organizationId,
        ruleset_id: input.rulesetId,
        direction: input.rule.direction,
        position: input.position,
        rule: JSON.stringify(input.rule),
        vm_tags: firewallRuleReferences(input.rule).vmTags,
        created_at: input.now,
        updated_at: input.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.#writeAddressGroups(tx, row.id, input.rule);
    return row.id;
  }

  async update(
    tx: Tx,
    id: string,
    input: { position: number; rule: FirewallRuleSpec; now: Date },
  ): Promise<void> {
    await tx
      .updateTable('firewall_rules')
      .set({
        direction: input.rule.direction,
        position: input.position,
        rule: JSON.stringify(input.rule),
        vm_tags: firewallRuleReferences(input.rule).vmTags,
        updated_at: input.now,
      })
      .where('id', '=', id)
      .execute();
    await tx.deleteFrom('firewall_rule_address_groups').where('rule_id', '=', id).execute();
    await this.#writeAddressGroups(tx, id, input.rule);
  }

  async delete(tx: Tx, id: string): Promise<void> {
    await tx.deleteFrom('firewall_rules').where('id', '=', id).execute();
  }

  /**
   * Numbers the rules 0, 1, 2… in the order given. Positions are unique per direction only at commit,
   * so the rows may be renumbered in any order.
   */
  async renumber(tx: Tx, orderedIds: readonly string[]): Promise<void> {
    if (orderedIds.length === 0) return;
    const values = sql.join(orderedIds.map((id, i) => sql`(${id}::uuid, ${i}::integer)`));
    await sql`
      UPDATE firewall_rules AS r SET position = v.position
      FROM (VALUES ${values}) AS v (id, position)
      WHERE r.id = v.id AND r.position <> v.position`.execute(tx);
  }

  async #writeAddressGroups(tx: Tx, ruleId: string, rule: FirewallRuleSpec): Promise<void> {
    const ids = firewallRuleReferences(rule).addressGroupIds;
    if (ids.length === 0) return;
    await tx
      .insertInto('firewall_rule_address_groups')
      .values(ids.map((id) => ({ rule_id: ruleId, address_group_id: id })))
      .execute();
  }
}
