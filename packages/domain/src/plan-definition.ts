import type { FieldViolation } from './domain-error.js';
import { amountInCurrencyProblem } from './currency.js';
import type { Problem } from './node-settings.js';
import { planCodeProblem, type PlanCodeParts } from './plan-code.js';

/**
 * What a provider sells: a VM's size and limits, its prices and where it may run. The rules here are the
 * ones that tie fields together; each field's own range is in PLAN_LIMITS, which the API schema applies.
 */
export const BILLING_TYPES = ['BILLING_TYPE_SUBSCRIPTION', 'BILLING_TYPE_USAGE'] as const;
export type BillingType = (typeof BILLING_TYPES)[number];

export const BILLING_PERIODS = [
  'BILLING_PERIOD_HOUR',
  'BILLING_PERIOD_DAY',
  'BILLING_PERIOD_WEEK',
  'BILLING_PERIOD_MONTH',
  'BILLING_PERIOD_QUARTER',
  'BILLING_PERIOD_YEAR',
] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

/** What happens to a customer's VMs when their prepaid credit runs out. */
export const CREDIT_EXHAUSTION_ACTIONS = ['suspend', 'continue_with_dunning'] as const;
type CreditExhaustionAction = (typeof CREDIT_EXHAUSTION_ACTIONS)[number];

/** Usage plans are metered by the hour, so their one price is the hourly one. */
export const USAGE_BILLING_PERIOD: BillingPeriod = 'BILLING_PERIOD_HOUR';

export const PLAN_LIMITS = {
  vcpus: { min: 1, max: 512 },
  /** GiB; beyond this no host we know of could run the VM, so it is a typo. */
  ramGb: { min: 1, max: 4096 },
  diskGb: { min: 1, max: 1_048_576 },
  /** 0 is unlimited. */
  bandwidthAllowanceGb: { min: 0, max: 100_000_000 },
  /** 0 is unlimited; 400 Gbit/s is the fastest NIC on sale. */
  networkRateLimitMbps: { min: 0, max: 400_000 },
  /** Proxmox's `cpuunits` range. */
  cpuUnits: { min: 1, max: 262_144 },
  /** Proxmox's `cpulimit` range, in cores; 0 is unlimited. */
  cpuLimit: { min: 0, max: 128 },
  trialDays: { min: 0, max: 365 },
  name: { min: 1, max: 100 },
  nodeIds: { min: 1, max: 100 },
  regionIds: { min: 1, max: 50 },
} as const;

/** Proxmox's default CPU weight under cgroup v1, the value the plan reference gives. */
export const DEFAULT_CPU_UNITS = 1024;
export const UNLIMITED = 0;
/** Proxmox takes `cpulimit` in hundredths of a core at most. */
const CPU_LIMIT_TEXT = /^\d+(?:\.\d{1,2})?$/;

export interface PlanPriceDefinition {
  readonly billingPeriod: BillingPeriod;
  readonly currency: string;
  /** A six-decimal money string. */
  readonly unitAmount: string;
}

export interface PlanDefinition extends PlanCodeParts {
  readonly name: string;
  readonly bandwidthAllowanceGb: number;
  readonly bandwidthPeriod: BillingPeriod;
  readonly networkRateLimitMbps: number;
  readonly cpuUnits: number;
  readonly cpuLimit: number;
  readonly billingType: BillingType;
  readonly planPrices: readonly PlanPriceDefinition[];
  /** In the currency of the prices. */
  readonly setupFee: string;
  readonly trialDays: number;
  /** Where the plan sells, at least one; each region's nodes take its orders there (NodeRings' `regionIds[]`). */
  readonly regionIds: readonly string[];
  readonly nodeIds: readonly string[];
  readonly isPublic: boolean;
  readonly onCreditExhaustion: CreditExhaustionAction;
}

export function cpuLimitProblem(limit: number): Problem {
  const { min, max } = PLAN_LIMITS.cpuLimit;
  if (limit >= min && limit <= max && CPU_LIMIT_TEXT.test(String(limit))) return undefined;
  return `must be from ${min} to ${max} cores with at most two decimals (${UNLIMITED} is unlimited)`;
}

export function planNameProblem(name: string): Problem {
  if (name.trim() === '') return 'must not be blank';
  return name.length > PLAN_LIMITS.name.max
    ? `must be at most ${PLAN_LIMITS.name.max} characters`
    : undefined;
}

/** The rules on a plan's prices, with paths under `planPrices`; the calculator checks unsaved prices too. */
export function planPriceViolations(
  billingType: BillingType,
  planPrices: readonly PlanPriceDefinition[],
): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const seen = new Set<BillingPeriod>();
  const currency = planPrices[0]?.currency;
  if (currency === undefined) return [{ field: 'planPrices', description: 'must hold at least one price' }];
  planPrices.forEach((price, i) => {
    if (seen.has(price.billingPeriod))
      violations.push({
        field: `planPrices.${i}.billingPeriod`,
        description: `${price.billingPeriod} is priced twice: a plan has one price per billing period`,
      });
    seen.add(price.billingPeriod);
    if (price.currency !== currency)
      violations.push({
        field: `planPrices.${i}.currency`,
        description: `must be ${currency} like the plan's first price: a plan is priced in one currency`,
      });
    if (billingType === 'BILLING_TYPE_USAGE' && price.billingPeriod !== USAGE_BILLING_PERIOD)
      violations.push({
        field: `planPrices.${i}.billingPeriod`,
        description: `must be ${USAGE_BILLING_PERIOD}: usage plans are billed by the hour`,
      });
  });
  return violations;
}

function nodeViolations(nodeIds: readonly string[]): FieldViolation[] {
  return nodeIds.flatMap((id, i) =>
    nodeIds.indexOf(id) === i ? [] : [{ field: `nodeIds.${i}`, description: 'names a node twice' }],
  );
}

function regionViolations(regionIds: readonly string[]): FieldViolation[] {
  if (regionIds.length === 0) return [{ field: 'regionIds', description: 'must hold at least one region' }];
  return regionIds.flatMap((id, i) =>
    regionIds.indexOf(id) === i ? [] : [{ field: `regionIds.${i}`, description: 'names a region twice' }],
  );
}

/**
 * Saved prices are in the currency's smallest unit (an hourly price is a rate: see RATE_EXTRA_DECIMALS).
 * The calculator's unsaved prices are not held to it: they are what-ifs at the stored precision.
 */
function pricePrecisionViolations(planPrices: readonly PlanPriceDefinition[]): FieldViolation[] {
  return planPrices.flatMap((price, i) => {
    const kind = price.billingPeriod === USAGE_BILLING_PERIOD ? 'rate' : 'charge';
    const description = amountInCurrencyProblem(price.unitAmount, price.currency, kind);
    return description === undefined ? [] : [{ field: `planPrices.${i}.unitAmount`, description }];
  });
}

/** The setup fee is charged once, in the currency of the plan's prices. */
function setupFeeProblem(plan: PlanDefinition): Problem {
  const currency = plan.planPrices[0]?.currency;
  return currency === undefined ? undefined : amountInCurrencyProblem(plan.setupFee, currency);
}

/**
 * Every rule on a complete plan, with its fields' names as paths; `givenCode` is the code a client sent,
 * if any. Empty when the plan is valid.
 */
export function planDefinitionViolations(plan: PlanDefinition, givenCode?: string): FieldViolation[] {
  const problems: [string, Problem][] = [
    ['name', planNameProblem(plan.name)],
    ['cpuLimit', cpuLimitProblem(plan.cpuLimit)],
    ['cpuLimit', plan.cpuLimit > plan.vcpus ? `must not exceed the plan's ${plan.vcpus} vCPUs` : undefined],
    ['code', givenCode === undefined ? undefined : planCodeProblem(givenCode, plan)],
    ['setupFee', setupFeeProblem(plan)],
  ];
  return [
    ...problems.flatMap(([field, description]) =>
      description === undefined ? [] : [{ field, description }],
    ),
    ...planPriceViolations(plan.billingType, plan.planPrices),
    ...pricePrecisionViolations(plan.planPrices),
    ...regionViolations(plan.regionIds),
    ...nodeViolations(plan.nodeIds),
  ];
}
