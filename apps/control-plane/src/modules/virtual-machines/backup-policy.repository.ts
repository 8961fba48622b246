import { sql } from 'kysely';

import { newGeneration } from '../../db/new-generation.js';
import type { Db } from '../../db/database.js';

/** What enabling backups reads of an addon. */
export interface BackupAddon {
  readonly id: string;
  readonly organizationId: string;
  readonly addonType: string;
  readonly schedule: string | null;
  readonly retention: number | null;
  readonly deletedAt: Date | null;
  readonly compatiblePlanIds: readonly string[];
}

/** Where and how the VM's node writes backups, as its provider set it. */
export interface NodeBackupSettings {
  readonly storage: string;
  /** `BACKUP_STORAGE_COMPRESSION_*`. */
  readonly compression: string;
}

/** The ProxmoxVM's `spec.backupPolicy` (DESIGN §3.2). */
export interface BackupPolicySpec {
  readonly schedule: string;
  readonly retention: number;
  readonly storage: string;
  readonly compression: 'none' | 'lzo' | 'gzip' | 'zstd';
}

/** A VM's backup policy: its `spec.backupPolicy` and, beside it, the addon it came from. */
export class BackupPolicyRepository {
  constructor(private readonly db: Db) {}

  async findAddon(id: string): Promise<BackupAddon | undefined> {
    const row = await this.db
      .selectFrom('addons as a')
      .select([
        'a.id',
        'a.organization_id',
        'a.addon_type',
        'a.backup_schedule',
        'a.backup_retention',
        'a.deleted_at',
      ])
      .select((eb) =>
        eb.fn
          .coalesce(
            eb
              .selectFrom('addon_plans as ap')
              .select(sql<string[]>`array_agg(ap.plan_id::text)`.as('plans'))
              .whereRef('ap.addon_id', '=', 'a.id'),
            sql<string[]>`'{}'::text[]`,
          )
          .as('plan_ids'),
      )
      .where('a.id', '=', id)
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        organizationId: row.organization_id,
        addonType: row.addon_type,
        schedule: row.backup_schedule,
        retention: row.backup_retention,
        deletedAt: row.deleted_at,
        compatiblePlanIds: row.plan_ids,
      }
    );
  }

  async nodeSettings(nodeId: string): Promise<NodeBackupSettings | undefined> {
    const row = await this.db
      .selectFrom('nodes')
      .select(['backup_storage_destination', 'backup_storage_compression'])
      .where('id', '=', nodeId)
      .executeTakeFirst();
    return row && { storage: row.backup_storage_destination, compression: row.backup_storage_compression };
  }

  /** The addon of the VM's policy, if it has one. */
  async enabledAddon(vmId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('vm_backup_policies')
      .select('addon_id')
      .where('vm_id', '=', vmId)
      .executeTakeFirst();
    return row?.addon_id;
  }

  /**
   * Sets the policy in the spec of a VM the customer owns and does not delete, as a new generation, and
   * records its addon; false when there is no such VM.
   */
  enable(
    clientOrganizationId: string,
    vmId: string,
    addonId: string,
    policy: BackupPolicySpec,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const changed = await tx
        .updateTable('virtual_machines')
        .set({
          spec: sql<string>`spec || ${JSON.stringify({ backupPolicy: policy })}::jsonb`,
          ...newGeneration(),
        })
        .where('id', '=', vmId)
        .where('client_organization_id', '=', clientOrganizationId)
        .where('desired_state', '=', 'PRESENT')
        .executeTakeFirst();
      if (changed.numUpdatedRows === 0n) return false;
      await tx
        .insertInto('vm_backup_policies')
        .values({ vm_id: vmId, addon_id: addonId })
        .onConflict((oc) =>
          oc.column('vm_id').doUpdateSet({ addon_id: addonId, enabled_at: sql<Date>`now()` }),
        )
        .execute();
      return true;
    });
  }

  /**
   * Takes the policy of `addonId` out of the VM's spec, as a new generation; with `deleteBackups`, the
   * backups it made are to be deleted too. False when the VM has no policy of that addon.
   */
  disable(
    clientOrganizationId: string,
    vmId: string,
    addonId: string,
    deleteBackups: boolean,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const removed = await tx
        .deleteFrom('vm_backup_policies as p')
        .where('p.vm_id', '=', vmId)
        .where('p.addon_id', '=', addonId)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('virtual_machines as v')
              .select('v.id')
              .whereRef('v.id', '=', 'p.vm_id')
              .where('v.client_organization_id', '=', clientOrganizationId)
              .where('v.desired_state', '=', 'PRESENT'),
          ),
        )
        .executeTakeFirst();
      if (removed.numDeletedRows === 0n) return false;
      await tx
        .updateTable('virtual_machines')
        .set({
          spec: sql<string>`spec - 'backupPolicy'`,
          ...newGeneration(),
        })
        .where('id', '=', vmId)
        .execute();
      if (deleteBackups)
        await tx
          .updateTable('vm_backups')
          .set({
            desired_state: 'ABSENT',
            ...newGeneration(),
          })
          .where('vm_id', '=', vmId)
          .where('desired_state', '=', 'PRESENT')
          .where('deleted_at', 'is', null)
          .execute();
      return true;
    });
  }
}
