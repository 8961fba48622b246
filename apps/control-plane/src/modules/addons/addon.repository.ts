import { ADDON_TYPES, type AddonType, AlreadyExistsError, type BackupPolicy } from '@noderings/domain';
import { sql, type Selectable, type Transaction } from 'kysely';

import type { Db } from '../../db/database.js';
import type { AddonTable, Database } from '../../db/schema.js';
import { listPage } from '../../db/list-page.js';
import { translateViolations } from '../../db/postgres-error.js';
import type { Page, PageResult } from '../../http/pagination.js';

/** How an addon is priced, amounts as six-decimal strings. */
export type AddonPricingTerms =
  | { readonly kind: 'fixed'; readonly currency: string; readonly unitAmount: string }
  | {
      readonly kind: 'percentage';
      readonly currency: string;
      readonly percentageValue: number;
      readonly zeroBaseFallbackAmount: string;
    };

export interface Addon {
  readonly id: string;
  readonly organizationId: string;
  readonly code: string;
  readonly name: string;
  readonly addonType: AddonType;
  readonly pricing: AddonPricingTerms;
  readonly compatiblePlanIds: readonly string[];
  readonly autoAttach: boolean;
  readonly isPublic: boolean;
  readonly backupPolicy: BackupPolicy | null;
  /** Set by DELETE: the addon is no longer listed or sold, but stays readable for what was sold with it. */
  readonly deletedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What a provider sets on an addon; the code and type are its identity and never change. */
export type EditableAddon = Pick<
  Addon,
  'name' | 'pricing' | 'compatiblePlanIds' | 'autoAttach' | 'isPublic' | 'backupPolicy'
>;

export type NewAddon = EditableAddon & Pick<Addon, 'organizationId' | 'code' | 'addonType'>;

export interface AddonFilter {
  readonly addonType?: AddonType | undefined;
  /** A piece of the name or code, matched case-insensitively. */
  readonly search?: string | undefined;
}

type AddonRow = Selectable<AddonTable>;

function addonTypeOf(value: string): AddonType {
  const known = ADDON_TYPES.find((t) => t === value);
  if (known === undefined) throw new Error(`addons.addon_type holds an unknown value: ${value}`);
  return known;
}

function required<T>(value: T | null, column: string): T {
  if (value === null) throw new Error(`addons.${column} is null on a row whose pricing needs it`);
  return value;
}

function pricingOf(r: AddonRow): AddonPricingTerms {
  if (r.pricing_kind === 'fixed')
    return { kind: 'fixed', currency: r.currency, unitAmount: required(r.unit_amount, 'unit_amount') };
  return {
    kind: 'percentage',
    currency: r.currency,
    // numeric(7, 4) text like 12.5000: at most four decimals, which a double reads back exactly as given.
    percentageValue: Number(required(r.percentage_value, 'percentage_value')),
    zeroBaseFallbackAmount: required(r.zero_base_fallback_amount, 'zero_base_fallback_amount'),
  };
}

function toAddon(r: AddonRow, compatiblePlanIds: readonly string[]): Addon {
  return {
    id: r.id,
    organizationId: r.organization_id,
    code: r.code,
    name: r.name,
    addonType: addonTypeOf(r.addon_type),
    pricing: pricingOf(r),
    compatiblePlanIds,
    autoAttach: r.auto_attach,
    isPublic: r.is_public,
    backupPolicy:
      r.backup_schedule === null || r.backup_retention === null
        ? null
        : { schedule: r.backup_schedule, retention: r.backup_retention },
    deletedAt: r.deleted_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toColumns(a: EditableAddon) {
  const { pricing } = a;
  return {
    name: a.name,
    pricing_kind: pricing.kind,
    currency: pricing.currency,
    unit_amount: pricing.kind === 'fixed' ? pricing.unitAmount : null,
    // The number as it was given (at most four decimals, see percentage.ts) is exact as text.
    percentage_value: pricing.kind === 'percentage' ? String(pricing.percentageValue) : null,
    zero_base_fallback_amount: pricing.kind === 'percentage' ? pricing.zeroBaseFallbackAmount : null,
    auto_attach: a.autoAttach,
    is_public: a.isPublic,
    backup_schedule: a.backupPolicy?.schedule ?? null,
    backup_retention: a.backupPolicy?.retention ?? null,
  };
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Every query is scoped to one organisation: another tenant's addon or plan is simply not found. */
export class AddonRepository {
  constructor(private readonly db: Db) {}

  async list(organizationId: string, filter: AddonFilter, page: Page): Promise<PageResult<Addon>> {
    let base = this.db
      .selectFrom('addons')
      .where('organization_id', '=', organizationId)
      .where('deleted_at', 'is', null);
    if (filter.addonType !== undefined) base = base.where('addon_type', '=', filter.addonType);
    const { search } = filter;
    if (search !== undefined && search.trim() !== '') {
      const pattern = likePattern(search.trim());
      base = base.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('code', 'ilike', pattern)]));
    }
    return listPage(base.selectAll().orderBy('created_at').orderBy('id'), page, (rows) =>
      this.#withPlans(rows),
    );
  }

  /** Deleted addons too: they stay readable. */
  async findById(organizationId: string, id: string): Promise<Addon | undefined> {
    const row = await this.db
      .selectFrom('addons')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const [addon] = await this.#withPlans([row]);
    return addon;
  }

  /** Which of these ids are plans of the organisation that are not deleted. */
  async activePlanIds(organizationId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('plans')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  async insert(addon: NewAddon): Promise<Addon> {
    return translateViolations(
      this.db.transaction().execute(async (tx) => {
        const row = await tx
          .insertInto('addons')
          .values({
            ...toColumns(addon),
            organization_id: addon.organizationId,
            code: addon.code,
            addon_type: addon.addonType,
            updated_at: sql<Date>`now()`,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await this.#replacePlans(tx, row.id, addon.compatiblePlanIds);
        return toAddon(row, addon.compatiblePlanIds);
      }),
      {
        unique: () =>
          new AlreadyExistsError(`Your organisation already has an addon with the code ${addon.code}.`),
      },
    );
  }

  /** Undefined when the addon does not exist in this organisation or is deleted. */
  async update(organizationId: string, id: string, next: EditableAddon): Promise<Addon | undefined> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx
        .updateTable('addons')
        .set({ ...toColumns(next), updated_at: sql<Date>`now()` })
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (row === undefined) return undefined;
      await this.#replacePlans(tx, id, next.compatiblePlanIds);
      return toAddon(row, next.compatiblePlanIds);
    });
  }

  /** False when the addon does not exist in this organisation or is already deleted. */
  async softDelete(organizationId: string, id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('addons')
      .set({ deleted_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async #replacePlans(tx: Transaction<Database>, addonId: string, planIds: readonly string[]): Promise<void> {
    await tx.deleteFrom('addon_plans').where('addon_id', '=', addonId).execute();
    if (planIds.length === 0) return;
    await tx
      .insertInto('addon_plans')
      .values(planIds.map((planId, position) => ({ addon_id: addonId, plan_id: planId, position })))
      .execute();
  }

  async #withPlans(rows: readonly AddonRow[]): Promise<Addon[]> {
    if (rows.length === 0) return [];
    const links = await this.db
      .selectFrom('addon_plans')
      .select(['addon_id', 'plan_id'])
      .where(
        'addon_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('position')
      .execute();
    return rows.map((r) =>
      toAddon(
        r,
        links.filter((l) => l.addon_id === r.id).map((l) => l.plan_id),
      ),
    );
  }
}
