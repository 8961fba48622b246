import { sql, type Transaction } from 'kysely';

import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import type { Database } from '../../db/schema.js';
import { translateViolations } from '../../db/postgres-error.js';
import type { Page, PageResult } from '../../http/pagination.js';
import { rulesetNameTaken } from './ruleset.errors.js';

type Tx = Transaction<Database>;

export interface RuleSetRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  readonly ruleCount: number;
  /** The hostnames of the live VMs it is attached to, in order. */
  readonly attachedVmHostnames: readonly string[];
  /** The same VMs' ids, in the same order. */
  readonly attachedVmIds: readonly string[];
}

type AttachmentFilter =
  'FIREWALL_RULESET_ATTACHMENT_FILTER_ATTACHED' | 'FIREWALL_RULESET_ATTACHMENT_FILTER_UNATTACHED';

export interface RuleSetFilter {
  /** Only rulesets whose name contains this, ignoring case. */
  readonly nameContains?: string | undefined;
  readonly attachment?: AttachmentFilter | undefined;
}

const RULESET_NAME_CONSTRAINT = 'firewall_rulesets_name';

/** pg reads a bigint count as a string, PGlite as a number. */
type Count = string | number | bigint;

/** Byte order, the same whatever the database's locale. */
const NAME_ORDER = sql`s.name COLLATE "C"`;

function baseQuery(db: Db | Tx, organizationId: string) {
  return db
    .selectFrom('firewall_rulesets as s')
    .where('s.organization_id', '=', organizationId)
    .select(['s.id', 's.organization_id', 's.name'])
    .select((eb) =>
      eb
        .selectFrom('firewall_rules as r')
        .select(eb.fn.countAll<Count>().as('n'))
        .whereRef('r.ruleset_id', '=', 's.id')
        .as('rule_count'),
    );
}

interface Row {
  id: string;
  organization_id: string;
  name: string;
  rule_count: Count | null;
}

/** Every query is scoped to one organisation: another tenant's ruleset is simply not found. */
export class RuleSetRepository {
  constructor(private readonly db: Db) {}

  async list(organizationId: string, filter: RuleSetFilter, page: Page): Promise<PageResult<RuleSetRecord>> {
    let query = baseQuery(this.db, organizationId);
    if (filter.nameContains !== undefined && filter.nameContains !== '')
      query = query.where(sql<boolean>`strpos(lower(s.name), lower(${filter.nameContains})) > 0`);
    if (filter.attachment !== undefined) {
      const attached = sql<boolean>`EXISTS (
        SELECT 1 FROM firewall_attachments a JOIN virtual_machines v ON v.id = a.vm_id
        WHERE a.ruleset_id = s.id AND v.desired_state = 'PRESENT')`;
      query = query.where(
        filter.attachment === 'FIREWALL_RULESET_ATTACHMENT_FILTER_ATTACHED'
          ? attached
          : sql<boolean>`NOT ${attached}`,
      );
    }
    return listPage(query.orderBy(NAME_ORDER).orderBy('s.id'), page, (rows) => this.#records(this.db, rows));
  }

  async find(organizationId: string, id: string, db: Db | Tx = this.db): Promise<RuleSetRecord | undefined> {
    const row = await baseQuery(db, organizationId).where('s.id', '=', id).executeTakeFirst();
    return row && (await this.#records(db, [row]))[0];
  }

  /** Locks the ruleset until the transaction ends; false when the organisation has no such ruleset. */
  async lock(tx: Tx, organizationId: string, id: string): Promise<boolean> {
    const row = await tx
      .selectFrom('firewall_rulesets')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    return row !== undefined;
  }

  async insert(organizationId: string, name: string, now: Date): Promise<string> {
    const row = await translateViolations(
      this.db
        .insertInto('firewall_rulesets')
        .values({ organization_id: organizationId, name, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow(),
      { unique: { [RULESET_NAME_CONSTRAINT]: () => rulesetNameTaken(name) } },
    );
    return row.id;
  }

  /** False when the organisation has no such ruleset. */
  async rename(organizationId: string, id: string, name: string, now: Date): Promise<boolean> {
    const result = await translateViolations(
      this.db
        .updateTable('firewall_rulesets')
        .set({ name, updated_at: now })
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst(),
      { unique: { [RULESET_NAME_CONSTRAINT]: () => rulesetNameTaken(name) } },
    );
    return result.numUpdatedRows > 0n;
  }

  /** Its rules and attachments go with it. */
  async delete(tx: Tx, id: string): Promise<void> {
    await tx.deleteFrom('firewall_rulesets').where('id', '=', id).execute();
  }

  /** The customer's VM, unless it is being deleted or gone. */
  async hasLiveVm(tx: Tx, organizationId: string, vmId: string): Promise<boolean> {
    const row = await tx
      .selectFrom('virtual_machines')
      .select('id')
      .where('id', '=', vmId)
      .where('client_organization_id', '=', organizationId)
      .where('desired_state', '=', 'PRESENT')
      .forShare()
      .executeTakeFirst();
    return row !== undefined;
  }

  async attachedRuleSet(tx: Tx, vmId: string): Promise<string | undefined> {
    const row = await tx
      .selectFrom('firewall_attachments')
      .select('ruleset_id')
      .where('vm_id', '=', vmId)
      .executeTakeFirst();
    return row?.ruleset_id;
  }

  /** Attaches the ruleset to the VM in place of any other. */
  async attach(tx: Tx, vmId: string, rulesetId: string): Promise<void> {
    await tx
      .insertInto('firewall_attachments')
      .values({ vm_id: vmId, ruleset_id: rulesetId })
      .onConflict((oc) => oc.column('vm_id').doUpdateSet({ ruleset_id: rulesetId }))
      .execute();
  }

  async detach(tx: Tx, vmId: string): Promise<void> {
    await tx.deleteFrom('firewall_attachments').where('vm_id', '=', vmId).execute();
  }

  /** The rows with their attached live VMs' hostnames, loaded for the page at once. */
  async #records(db: Db | Tx, rows: readonly Row[]): Promise<RuleSetRecord[]> {
    const ids = rows.map((r) => r.id);
    const attached =
      ids.length === 0
        ? []
        : await db
            .selectFrom('firewall_attachments as a')
            .innerJoin('virtual_machines as v', 'v.id', 'a.vm_id')
            .select(['a.ruleset_id', 'v.hostname', 'v.id'])
            .where('a.ruleset_id', 'in', ids)
            .where('v.desired_state', '=', 'PRESENT')
            .orderBy(sql`v.hostname COLLATE "C"`)
            .orderBy('v.id')
            .execute();
    return rows.map((r) => {
      const vms = attached.filter((a) => a.ruleset_id === r.id);
      return {
        id: r.id,
        organizationId: r.organization_id,
        name: r.name,
        ruleCount: Number(r.rule_count ?? 0),
        attachedVmHostnames: vms.map((a) => a.hostname),
        attachedVmIds: vms.map((a) => a.id),
      };
    });
  }
}
