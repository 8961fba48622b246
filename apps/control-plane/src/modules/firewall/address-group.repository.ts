import { sql, type Selectable, type Transaction } from 'kysely';

import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import type { Database } from '../../db/schema.js';
import { translateViolations } from '../../db/postgres-error.js';
import type { Page, PageResult } from '../../http/pagination.js';
import { addressGroupNameTaken } from './address-group.errors.js';

type Tx = Transaction<Database>;

export interface AddressGroupRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  /** Canonical CIDR prefixes. */
  readonly prefixes: readonly string[];
}

const ADDRESS_GROUP_NAME_CONSTRAINT = 'firewall_address_groups_name';

function toRecord(r: Selectable<Database['firewall_address_groups']>): AddressGroupRecord {
  return { id: r.id, organizationId: r.organization_id, name: r.name, prefixes: r.prefixes };
}

/** Every query is scoped to one organisation: another tenant's group is simply not found. */
export class AddressGroupRepository {
  constructor(private readonly db: Db) {}

  list(organizationId: string, page: Page): Promise<PageResult<AddressGroupRecord>> {
    return listPage(
      this.db
        .selectFrom('firewall_address_groups')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .orderBy(sql`name COLLATE "C"`)
        .orderBy('id'),
      page,
      (rows) => rows.map(toRecord),
    );
  }

  /** With `lock`, the group is locked until the transaction ends. */
  async find(
    organizationId: string,
    id: string,
    db: Db | Tx = this.db,
    lock = false,
  ): Promise<AddressGroupRecord | undefined> {
    const query = db
      .selectFrom('firewall_address_groups')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id);
    const row = await (lock ? query.forUpdate() : query).executeTakeFirst();
    return row && toRecord(row);
  }

  async insert(
    organizationId: string,
    fields: { name: string; prefixes: readonly string[] },
    now: Date,
  ): Promise<AddressGroupRecord> {
    const row = await translateViolations(
      this.db
        .insertInto('firewall_address_groups')
        .values({
          organization_id: organizationId,
          name: fields.name,
          prefixes: [...fields.prefixes],
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
      { unique: { [ADDRESS_GROUP_NAME_CONSTRAINT]: () => addressGroupNameTaken(fields.name) } },
    );
    return toRecord(row);
  }

  async update(
    tx: Tx,
    id: string,
    fields: { name: string; prefixes: readonly string[] },
    now: Date,
  ): Promise<void> {
    await translateViolations(
      tx
        .updateTable('firewall_address_groups')
        .set({ name: fields.name, prefixes: [...fields.prefixes], updated_at: now })
        .where('id', '=', id)
        .execute(),
      { unique: { [ADDRESS_GROUP_NAME_CONSTRAINT]: () => addressGroupNameTaken(fields.name) } },
    );
  }

  async isNamedByRules(tx: Tx, id: string): Promise<boolean> {
    const row = await tx
      .selectFrom('firewall_rule_address_groups')
      .select('rule_id')
      .where('address_group_id', '=', id)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async delete(tx: Tx, id: string): Promise<void> {
    await tx.deleteFrom('firewall_address_groups').where('id', '=', id).execute();
  }
}
