import { FailedPreconditionError, InvalidArgumentError } from './domain-error.js';
import { scaleMoneyAmount, ZERO_MONEY_AMOUNT } from './money.js';
import { applyPercentage } from './percentage.js';
import { USAGE_BILLING_PERIOD, type BillingPeriod, type BillingType } from './plan-definition.js';

/**
 * The price calculator: what one VM of a plan, with its addons, costs for one billing period. Amounts are
 * bigint micro-units (see money.ts); each line item is rounded once, half up, and the totals are exact
 * sums of the line items, so an invoice built from the items always adds up.
 */

/** A month is 730 hours (8 760 / 12), the cap on what a usage plan bills for a month. */
export const HOURS_PER_MONTH = 730;

const PERIOD_HOURS: Readonly<Record<BillingPeriod, number>> = {
  BILLING_PERIOD_HOUR: 1,
  BILLING_PERIOD_DAY: 24,
  BILLING_PERIOD_WEEK: 7 * 24,
  BILLING_PERIOD_MONTH: HOURS_PER_MONTH,
  BILLING_PERIOD_QUARTER: 3 * HOURS_PER_MONTH,
  BILLING_PERIOD_YEAR: 12 * HOURS_PER_MONTH,
};

/** The hours a period bills for: a usage plan never bills more than these for one period. */
export function billingPeriodHours(period: BillingPeriod): number {
  return PERIOD_HOURS[period];
}

interface QuotedPlanPrice {
  readonly billingPeriod: BillingPeriod;
  readonly currency: string;
  readonly unitAmount: bigint;
}

export interface QuotedPlan {
  readonly name: string;
  readonly billingType: BillingType;
  readonly planPrices: readonly QuotedPlanPrice[];
  readonly setupFee: bigint;
  /** The plan's id, echoed on its line items when it is a saved plan. */
  readonly referenceId?: string | undefined;
}

/**
 * How an addon is priced. A fixed amount is per month and is charged for the same hours as the plan (so
 * a year costs twelve months, an hour 1/730 of one). A percentage is of the plan's charge; when the plan
 * itself costs nothing, the fallback amount (per month, like a fixed price) is charged instead.
 */
export type AddonPricing =
  | { readonly kind: 'fixed'; readonly currency: string; readonly unitAmount: bigint }
  | {
      readonly kind: 'percentage';
      readonly currency: string;
      /** Ten-thousandths of a percent (see percentage.ts). */
      readonly percentage: bigint;
      readonly zeroBaseFallbackAmount: bigint;
    };

export interface QuotedAddon {
  readonly name: string;
  readonly referenceId?: string | undefined;
  readonly pricing: AddonPricing;
  readonly quantity: number;
}

export interface QuoteRequest {
  readonly plan: QuotedPlan;
  readonly billingPeriod: BillingPeriod;
  /** Usage plans only: the hours used in the period; capped at the period's hours, a full period if absent. */
  readonly hours?: number | undefined;
  readonly includeSetupFee: boolean;
  readonly addons: readonly QuotedAddon[];
  /** Ten-thousandths of a percent, applied to the subtotal. */
  readonly taxRate: bigint;
}

type ProductType = 'PRODUCT_TYPE_PLAN' | 'PRODUCT_TYPE_ADDON';

interface QuoteLineItem {
  readonly productType: ProductType;
  readonly description: string;
  readonly referenceId?: string | undefined;
  readonly quantity: number;
  readonly unitAmount: bigint;
  /** Always `unitAmount × quantity`. */
  readonly amount: bigint;
}

export interface PriceQuote {
  readonly currency: string;
  readonly billingPeriod: BillingPeriod;
  /** The hours the period is charged for: the period's hours, or a usage plan's capped hours. */
  readonly chargedHours: number;
  readonly lineItems: readonly QuoteLineItem[];
  readonly subtotal: bigint;
  readonly tax: bigint;
  readonly total: bigint;
}

interface PlanCharge {
  readonly currency: string;
  readonly chargedHours: number;
  readonly item: QuoteLineItem;
  readonly unitPrice: bigint;
}

function item(fields: Omit<QuoteLineItem, 'amount'>): QuoteLineItem {
  return { ...fields, amount: fields.unitAmount * BigInt(fields.quantity) };
}

function priceFor(plan: QuotedPlan, period: BillingPeriod): QuotedPlanPrice {
  const price = plan.planPrices.find((p) => p.billingPeriod === period);
  if (price === undefined) throw new FailedPreconditionError(`The plan has no ${period} price.`);
  return price;
}

function planCharge(request: QuoteRequest): PlanCharge {
  const { plan, billingPeriod } = request;
  const periodHours = billingPeriodHours(billingPeriod);
  if (plan.billingType === 'BILLING_TYPE_USAGE') {
    const hourly = priceFor(plan, USAGE_BILLING_PERIOD);
    const chargedHours = Math.min(request.hours ?? periodHours, periodHours);
    return {
      currency: hourly.currency,
      chargedHours,
      unitPrice: hourly.unitAmount,
      item: item({
        productType: 'PRODUCT_TYPE_PLAN',
        description: `${plan.name}: ${chargedHours} h of ${billingPeriod} (capped at ${periodHours} h)`,
        referenceId: plan.referenceId,
        quantity: chargedHours,
        unitAmount: hourly.unitAmount,
      }),
    };
  }
  if (request.hours !== undefined)
    throw InvalidArgumentError.field(
      'hours',
      'applies to usage plans only: a subscription bills whole periods',
    );
  const price = priceFor(plan, billingPeriod);
  return {
    currency: price.currency,
    chargedHours: periodHours,
    unitPrice: price.unitAmount,
    item: item({
      productType: 'PRODUCT_TYPE_PLAN',
      description: `${plan.name}: ${billingPeriod}`,
      referenceId: plan.referenceId,
      quantity: 1,
      unitAmount: price.unitAmount,
    }),
  };
}

function addonUnitAmount(pricing: AddonPricing, charge: PlanCharge): bigint {
  const hours = BigInt(charge.chargedHours);
  const month = BigInt(HOURS_PER_MONTH);
  if (pricing.kind === 'fixed') return scaleMoneyAmount(pricing.unitAmount, hours, month);
  if (charge.unitPrice === ZERO_MONEY_AMOUNT)
    return scaleMoneyAmount(pricing.zeroBaseFallbackAmount, hours, month);
  return applyPercentage(charge.item.amount, pricing.percentage);
}

export function quotePrice(request: QuoteRequest): PriceQuote {
  const charge = planCharge(request);
  const items: QuoteLineItem[] = [charge.item];
  if (request.includeSetupFee && request.plan.setupFee > ZERO_MONEY_AMOUNT)
    items.push(
      item({
        productType: 'PRODUCT_TYPE_PLAN',
        description: `${request.plan.name}: setup fee`,
        referenceId: request.plan.referenceId,
        quantity: 1,
        unitAmount: request.plan.setupFee,
      }),
    );
  request.addons.forEach((addon, i) => {
    if (addon.pricing.currency !== charge.currency)
      throw InvalidArgumentError.field(
        `addons.${i}`,
        `is priced in ${addon.pricing.currency}, the plan in ${charge.currency}: a quote has one currency`,
      );
    items.push(
      item({
        productType: 'PRODUCT_TYPE_ADDON',
        description: addon.name,
        referenceId: addon.referenceId,
        quantity: addon.quantity,
        unitAmount: addonUnitAmount(addon.pricing, charge),
      }),
    );
  });
  const subtotal = items.reduce((sum, i) => sum + i.amount, ZERO_MONEY_AMOUNT);
  const tax = applyPercentage(subtotal, request.taxRate);
  return {
    currency: charge.currency,
    billingPeriod: request.billingPeriod,
    chargedHours: charge.chargedHours,
    lineItems: items,
    subtotal,
    tax,
    total: subtotal + tax,
  };
}
