import {
  InvalidArgumentError,
  NotFoundError,
  parseMoneyAmount,
  parsePercentage,
  planPriceViolations,
  quotePrice,
  type AddonPricing,
  type BillingPeriod,
  type BillingType,
  type FieldViolation,
  type PlanPriceDefinition,
  type PriceQuote,
  type QuotedAddon,
  type QuotedPlan,
} from '@noderings/domain';

import type { AddonPricingTerms, AddonService } from '../addons/index.js';
import type { PlanService } from './plan.service.js';

/** Prices a plan that is not saved yet, so a provider can try them before creating the plan. */
interface PlanConfig {
  readonly name?: string | undefined;
  readonly billingType: BillingType;
  readonly planPrices: readonly PlanPriceDefinition[];
  readonly setupFee: string;
}

/** An addon of the organisation by id, or pricing terms to try. */
export interface CalculationAddon {
  readonly addonId?: string | undefined;
  readonly pricing?: AddonPricingTerms | undefined;
  readonly quantity: number;
}

export interface CalculationInput {
  readonly planId?: string | undefined;
  readonly planConfig?: PlanConfig | undefined;
  readonly billingPeriod: BillingPeriod;
  readonly hours?: number | undefined;
  readonly includeSetupFee: boolean;
  readonly addons: readonly CalculationAddon[];
  readonly taxRatePercent: number;
}

const UNSAVED_PLAN_NAME = 'Plan';

/** The price calculator over the organisation's own plans and addons (the rules are quotePrice's). */
export class PlanCalculator {
  constructor(
    private readonly deps: {
      readonly plans: Pick<PlanService, 'getActive'>;
      readonly addons: Pick<AddonService, 'get'>;
    },
  ) {}

  async calculate(organizationId: string, input: CalculationInput): Promise<PriceQuote> {
    const plan = await this.#plan(organizationId, input);
    const addons = await Promise.all(
      input.addons.map((addon, i) => this.#addon(organizationId, addon, i, input.planId)),
    );
    return quotePrice({
      plan,
      billingPeriod: input.billingPeriod,
      hours: input.hours,
      includeSetupFee: input.includeSetupFee,
      addons,
      taxRate: parsePercentage(input.taxRatePercent, 'taxRatePercent'),
    });
  }

  async #plan(organizationId: string, input: CalculationInput): Promise<QuotedPlan> {
    const { planId, planConfig } = input;
    if ((planId === undefined) === (planConfig === undefined))
      throw InvalidArgumentError.field('planId', 'give either planId or planConfig');
    if (planId !== undefined) {
      const plan = await this.deps.plans.getActive(organizationId, planId);
      return {
        name: plan.name,
        referenceId: plan.id,
        billingType: plan.billingType,
        setupFee: parseMoneyAmount(plan.setupFee, 'setupFee'),
        planPrices: plan.planPrices.map((p) => ({
          ...p,
          unitAmount: parseMoneyAmount(p.unitAmount, 'unitAmount'),
        })),
      };
    }
    if (planConfig === undefined) throw new Error('unreachable: planConfig checked above');
    refuseViolations(
      planPriceViolations(planConfig.billingType, planConfig.planPrices).map((v) => ({
        ...v,
        field: `planConfig.${v.field}`,
      })),
    );
    return {
      name: planConfig.name ?? UNSAVED_PLAN_NAME,
      billingType: planConfig.billingType,
      setupFee: parseMoneyAmount(planConfig.setupFee, 'planConfig.setupFee'),
      planPrices: planConfig.planPrices.map((p, i) => ({
        ...p,
        unitAmount: parseMoneyAmount(p.unitAmount, `planConfig.planPrices.${i}.unitAmount`),
      })),
    };
  }

  async #addon(
    organizationId: string,
    given: CalculationAddon,
    index: number,
    planId: string | undefined,
  ): Promise<QuotedAddon> {
    const field = `addons.${index}`;
    if ((given.addonId === undefined) === (given.pricing === undefined))
      throw InvalidArgumentError.field(field, 'give either addonId or pricing');
    if (given.pricing !== undefined)
      return {
        name: `Addon ${index + 1}`,
        pricing: quotedPricing(given.pricing, `${field}.pricing`),
        quantity: given.quantity,
      };
    const addonId = given.addonId ?? '';
    const addon = await this.deps.addons.get(organizationId, addonId);
    if (addon.deletedAt !== null) throw NotFoundError.of('Addon', addonId);
    if (planId !== undefined && !addon.compatiblePlanIds.includes(planId))
      throw InvalidArgumentError.field(`${field}.addonId`, `${addon.code} is not compatible with this plan`);
    return {
      name: addon.name,
      referenceId: addon.id,
      pricing: quotedPricing(addon.pricing, `${field}.pricing`),
      quantity: given.quantity,
    };
  }
}

function quotedPricing(pricing: AddonPricingTerms, field: string): AddonPricing {
  if (pricing.kind === 'fixed')
    return {
      kind: 'fixed',
      currency: pricing.currency,
      unitAmount: parseMoneyAmount(pricing.unitAmount, `${field}.unitAmount`),
    };
  return {
    kind: 'percentage',
    currency: pricing.currency,
    percentage: parsePercentage(pricing.percentageValue, `${field}.percentageValue`),
    zeroBaseFallbackAmount: parseMoneyAmount(
      pricing.zeroBaseFallbackAmount,
      `${field}.zeroBaseFallbackAmount`,
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
