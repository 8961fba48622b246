import { sql, type Transaction } from 'kysely';

import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import type { Database } from '../../db/schema.js';
import type { Page, PageResult } from '../../http/pagination.js';
import type { SmtpOutboundVmAction } from './outbound-smtp-policy.js';

type Tx = Transaction<Database>;

/** One live VM on the provider's infrastructure and the provider's decision for it. */
export interface VmSmtpPolicyRecord {
  readonly vmId: string;
  readonly hostname: string;
  readonly clientOrganizationId: string;
  readonly action: SmtpOutboundVmAction;
}

function lockKey(providerOrganizationId: string): string {
  return `outbound-smtp/${providerOrganizationId}`;
}

function vmQuery(db: Db | Tx, providerOrganizationId: string) {
  return db
    .selectFrom('virtual_machines as v')
    .leftJoin('outbound_smtp_vm_policies as p', 'p.vm_id', 'v.id')
    .select(['v.id', 'v.hostname', 'v.client_organization_id', 'p.action'])
    .where('v.provider_organization_id', '=', providerOrganizationId)
    .where('v.desired_state', '=', 'PRESENT');
}

function toRecord(r: {
  id: string;
  hostname: string;
  client_organization_id: string;
  action: Exclude<SmtpOutboundVmAction, 'SMTP_OUTBOUND_VM_ACTION_INHERIT'> | null;
}): VmSmtpPolicyRecord {
  return {
    vmId: r.id,
    hostname: r.hostname,
    clientOrganizationId: r.client_organization_id,
    action: r.action ?? 'SMTP_OUTBOUND_VM_ACTION_INHERIT',
  };
}

/** Every query is scoped to one provider: another provider's VM is simply not found. */
export class OutboundSmtpRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Serialises the provider's SMTP changes until the transaction ends, so each sees the one before. */
  async lockProvider(tx: Tx, providerOrganizationId: string): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${lockKey(providerOrganizationId)}, 0))`.execute(
      tx,
    );
  }

  /** Undefined when the provider never chose. */
  async blockByDefault(providerOrganizationId: string, db: Db | Tx = this.db): Promise<boolean | undefined> {
    const row = await db
      .selectFrom('outbound_smtp_defaults')
      .select('block_by_default')
      .where('organization_id', '=', providerOrganizationId)
      .executeTakeFirst();
    return row?.block_by_default;
  }

  async putBlockByDefault(tx: Tx, providerOrganizationId: string, blockByDefault: boolean): Promise<void> {
    await tx
      .insertInto('outbound_smtp_defaults')
      .values({
        organization_id: providerOrganizationId,
        block_by_default: blockByDefault,
        updated_at: sql<Date>`now()`,
      })
      .onConflict((oc) =>
        oc
          .column('organization_id')
          .doUpdateSet({ block_by_default: blockByDefault, updated_at: sql<Date>`now()` }),
      )
      .execute();
  }

  list(
    providerOrganizationId: string,
    search: string | undefined,
    page: Page,
  ): Promise<PageResult<VmSmtpPolicyRecord>> {
    let query = vmQuery(this.db, providerOrganizationId);
    if (search !== undefined && search !== '')
      query = query.where((eb) =>
        eb.or([
          eb(sql<number>`strpos(lower(v.hostname), lower(${search}))`, '>', 0),
          eb(sql<string>`v.id::text`, '=', search.toLowerCase()),
        ]),
      );
    return listPage(query.orderBy(sql`v.hostname COLLATE "C"`).orderBy('v.id'), page, (rows) =>
      rows.map(toRecord),
    );
  }

  async findLiveVm(
    providerOrganizationId: string,
    vmId: string,
    db: Db | Tx = this.db,
  ): Promise<VmSmtpPolicyRecord | undefined> {
    const row = await vmQuery(db, providerOrganizationId).where('v.id', '=', vmId).executeTakeFirst();
    return row && toRecord(row);
  }

  /** Any VM's provider and the provider's decision for it, deleted VMs included. */
  async vmPolicy(
    vmId: string,
  ): Promise<{ providerOrganizationId: string; action: SmtpOutboundVmAction } | undefined> {
    const row = await this.db
      .selectFrom('virtual_machines as v')
      .leftJoin('outbound_smtp_vm_policies as p', 'p.vm_id', 'v.id')
      .select(['v.provider_organization_id', 'p.action'])
      .where('v.id', '=', vmId)
      .executeTakeFirst();
    return (
      row && {
        providerOrganizationId: row.provider_organization_id,
        action: row.action ?? 'SMTP_OUTBOUND_VM_ACTION_INHERIT',
      }
    );
  }

  /** INHERIT is kept as no row: one spelling of "follow the default". */
  async setAction(tx: Tx, vmId: string, action: SmtpOutboundVmAction): Promise<void> {
    if (action === 'SMTP_OUTBOUND_VM_ACTION_INHERIT') {
      await tx.deleteFrom('outbound_smtp_vm_policies').where('vm_id', '=', vmId).execute();
      return;
    }
    await tx
      .insertInto('outbound_smtp_vm_policies')
      .values({ vm_id: vmId, action, updated_at: sql<Date>`now()` })
      .onConflict((oc) => oc.column('vm_id').doUpdateSet({ action, updated_at: sql<Date>`now()` }))
      .execute();
  }

  /** The provider's live VMs that follow the default. */
  async inheritingLiveVms(tx: Tx, providerOrganizationId: string): Promise<string[]> {
    const rows = await vmQuery(tx, providerOrganizationId).where('p.action', 'is', null).execute();
    return rows.map((r) => r.id);
  }
}
