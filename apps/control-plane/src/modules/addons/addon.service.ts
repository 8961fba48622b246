import {
  addonDefinitionViolations,
  InvalidArgumentError,
  normalizeMoneyAmount,
  NotFoundError,
  type AddonType,
  type FieldViolation,
} from '@noderings/domain';

import type { Page, PageResult } from '../../http/pagination.js';
import type {
  Addon,
  AddonFilter,
  AddonPricingTerms,
  AddonRepository,
  EditableAddon,
} from './addon.repository.js';

export type AddonInput = Omit<EditableAddon, 'backupPolicy'> & {
  readonly code: string;
  readonly addonType: AddonType;
  readonly backupPolicy?: EditableAddon['backupPolicy'] | undefined;
};

export type AddonChanges = { readonly [K in keyof EditableAddon]?: EditableAddon[K] | undefined };

export class AddonService {
  constructor(
    private readonly deps: {
      readonly addons: Pick<
        AddonRepository,
        'list' | 'findById' | 'activePlanIds' | 'insert' | 'update' | 'softDelete'
      >;
    },
  ) {}

  list(organizationId: string, filter: AddonFilter, page: Page): Promise<PageResult<Addon>> {
    return this.deps.addons.list(organizationId, filter, page);
  }

  /** Deleted addons are still found: what was sold with them must stay explainable. */
  async get(organizationId: string, id: string): Promise<Addon> {
    const addon = await this.deps.addons.findById(organizationId, id);
    if (addon === undefined) throw NotFoundError.of('Addon', id);
    return addon;
  }

  async create(organizationId: string, input: AddonInput): Promise<Addon> {
    const { code, addonType, ...given } = input;
    const addon: EditableAddon = {
      ...given,
      pricing: normalizedPricing(given.pricing),
      backupPolicy: given.backupPolicy ?? null,
    };
    refuseViolations(addonDefinitionViolations({ ...addon, addonType }));
    await this.#requirePlans(organizationId, addon.compatiblePlanIds);
    return await this.deps.addons.insert({ ...addon, organizationId, code, addonType });
  }

  /** Fields left out keep their values; a list given replaces the list. */
  async update(organizationId: string, id: string, changes: AddonChanges): Promise<Addon> {
    const current = await this.get(organizationId, id);
    if (current.deletedAt !== null) throw NotFoundError.of('Addon', id);
    const next: EditableAddon = {
      name: changes.name ?? current.name,
      pricing: normalizedPricing(changes.pricing ?? current.pricing),
      compatiblePlanIds: changes.compatiblePlanIds ?? current.compatiblePlanIds,
      autoAttach: changes.autoAttach ?? current.autoAttach,
      isPublic: changes.isPublic ?? current.isPublic,
      backupPolicy: changes.backupPolicy ?? current.backupPolicy,
    };
    refuseViolations(addonDefinitionViolations({ ...next, addonType: current.addonType }));
    if (changes.compatiblePlanIds !== undefined)
      await this.#requirePlans(organizationId, changes.compatiblePlanIds);
    const updated = await this.deps.addons.update(organizationId, id, next);
    if (updated === undefined) throw NotFoundError.of('Addon', id);
    return updated;
  }

  /** A soft delete: the addon leaves the lists and can no longer be sold, but stays readable. */
  async delete(organizationId: string, id: string): Promise<void> {
    if (!(await this.deps.addons.softDelete(organizationId, id))) throw NotFoundError.of('Addon', id);
  }

  /** Another organisation's plan, or a deleted one, is not found: existence never leaks. */
  async #requirePlans(organizationId: string, planIds: readonly string[]): Promise<void> {
    const found = await this.deps.addons.activePlanIds(organizationId, planIds);
    const missing = planIds.find((id) => !found.has(id));
    if (missing !== undefined) throw NotFoundError.of('Plan', missing);
  }
}

function normalizedPricing(pricing: AddonPricingTerms): AddonPricingTerms {
  return pricing.kind === 'fixed'
    ? { ...pricing, unitAmount: normalizeMoneyAmount(pricing.unitAmount, 'pricing.unitAmount') }
    : {
        ...pricing,
        zeroBaseFallbackAmount: normalizeMoneyAmount(
          pricing.zeroBaseFallbackAmount,
          'pricing.zeroBaseFallbackAmount',
        ),
      };
}

function refuseViolations(violations: readonly FieldViolation[]): void {
  if (violations.length === 0) return;
  throw new InvalidArgumentError(
    violations.map((v) => `${v.field}: ${v.description}`).join('; '),
    violations,
  );
}
