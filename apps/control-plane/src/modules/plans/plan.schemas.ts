import {
  BILLING_PERIODS,
  BILLING_TYPES,
  COMPUTE_CATEGORIES,
  COMPUTE_TYPE_ABBREVIATIONS,
  COMPUTE_TYPES,
  cpuLimitProblem,
  DEFAULT_CPU_UNITS,
  findComputeType,
  formatMoneyAmount,
  NODE_COMPUTE_TYPES,
  PLAN_LIMITS,
  planNameProblem,
  UNLIMITED,
  type PriceQuote,
} from '@noderings/domain';
import { z } from 'zod';

import { currencyCode, moneyAmount, percentage } from '../../http/money-schema.js';
import { ruled } from '../../http/ruled-schema.js';
import { wireEnum } from '../../http/wire-enum.js';
import { addonPricing } from '../addons/index.js';
import type { AssignableNode } from './plan.service.js';
import type { Plan } from './plan.repository.js';

const creditExhaustion = wireEnum({
  suspend: 'CREDIT_EXHAUSTION_ACTION_SUSPEND',
  continue_with_dunning: 'CREDIT_EXHAUSTION_ACTION_CONTINUE_WITH_DUNNING',
} satisfies Record<Plan['onCreditExhaustion'], string>);

function int(limits: { readonly min: number; readonly max: number }) {
  return z.number().int().min(limits.min).max(limits.max);
}

const planPrice = z.strictObject({
  billingPeriod: z.enum(BILLING_PERIODS),
  currency: currencyCode,
  unitAmount: moneyAmount,
});

const planPrices = z
  .array(planPrice)
  .min(1)
  .max(BILLING_PERIODS.length)
  .describe('One price per billing period, all in one currency. Usage plans have one: BILLING_PERIOD_HOUR.');

/** Every field of a plan; all optional, for PATCH. */
const editableFields = {
  code: z
    .string()
    .max(40)
    .describe('Derived from the specs (SC-GC-2C-4G-40); when given, it must be that code.'),
  name: ruled(z.string().max(PLAN_LIMITS.name.max), planNameProblem),
  computeCategory: z.enum(COMPUTE_CATEGORIES).describe('SC or DC in the code; the nodes must match it.'),
  computeType: z.enum(COMPUTE_TYPES),
  vcpus: int(PLAN_LIMITS.vcpus),
  ramGb: int(PLAN_LIMITS.ramGb).describe('GiB (1024³ bytes), written G in the code.'),
  diskGb: int(PLAN_LIMITS.diskGb).describe('GiB (1024³ bytes).'),
  bandwidthAllowanceGb: int(PLAN_LIMITS.bandwidthAllowanceGb).describe(
    `Traffic (egress) included per bandwidthPeriod, in GiB; ${UNLIMITED} is unlimited.`,
  ),
  bandwidthPeriod: z.enum(BILLING_PERIODS),
  networkRateLimitMbps: int(PLAN_LIMITS.networkRateLimitMbps).describe(
    `Megabits per second; ${UNLIMITED} is unlimited.`,
  ),
  cpuUnits: int(PLAN_LIMITS.cpuUnits).describe('Proxmox cpuunits: the CPU weight against other VMs.'),
  cpuLimit: ruled(
    z.number().min(PLAN_LIMITS.cpuLimit.min).max(PLAN_LIMITS.cpuLimit.max),
    cpuLimitProblem,
  ).describe(`Proxmox cpulimit in cores, at most the vCPUs; ${UNLIMITED} is unlimited.`),
  billingType: z.enum(BILLING_TYPES),
  planPrices,
  setupFee: moneyAmount.describe('One-time, in the currency of the prices.'),
  trialDays: int(PLAN_LIMITS.trialDays),
  regionIds: z
    .array(z.uuid())
    .min(PLAN_LIMITS.regionIds.min)
    .max(PLAN_LIMITS.regionIds.max)
    .describe('Regions of your organisation the plan sells in; each region’s nodes take its orders there.'),
  regionId: z.uuid().describe('One region, as regionIds: [regionId]; give one of the two.'),
  nodeIds: z
    .array(z.uuid())
    .min(PLAN_LIMITS.nodeIds.min)
    .max(PLAN_LIMITS.nodeIds.max)
    .describe('Nodes of those regions the plan may be placed on, of its compute category and big enough.'),
  isPublic: z.boolean(),
  onCreditExhaustion: creditExhaustion.schema,
};

/** `regionId` is the one-region spelling of `regionIds`; a body gives at most one of them. */
function oneRegionSpelling(body: { regionIds?: unknown; regionId?: unknown }): boolean {
  return body.regionIds === undefined || body.regionId === undefined;
}
const ONE_REGION_SPELLING = { error: 'give regionIds or regionId, not both', path: ['regionId'] };

function withRegionIds<T extends { regionIds?: string[] | undefined; regionId?: string | undefined }>(
  body: T,
): Omit<T, 'regionId' | 'regionIds'> & { regionIds?: string[] } {
  const { regionId, regionIds, ...rest } = body;
  const ids = regionIds ?? (regionId === undefined ? undefined : [regionId]);
  return { ...rest, ...(ids !== undefined && { regionIds: ids }) };
}

export const createPlanBody = z
  .strictObject({
    ...editableFields,
    regionIds: editableFields.regionIds.optional(),
    regionId: editableFields.regionId.optional(),
    code: editableFields.code.optional(),
    computeCategory: editableFields.computeCategory.default('COMPUTE_CATEGORY_SHARED_COMPUTE'),
    bandwidthAllowanceGb: editableFields.bandwidthAllowanceGb.default(UNLIMITED),
    bandwidthPeriod: editableFields.bandwidthPeriod.default('BILLING_PERIOD_MONTH'),
    networkRateLimitMbps: editableFields.networkRateLimitMbps.default(UNLIMITED),
    cpuUnits: editableFields.cpuUnits.default(DEFAULT_CPU_UNITS),
    cpuLimit: editableFields.cpuLimit.default(UNLIMITED),
    billingType: editableFields.billingType.default('BILLING_TYPE_SUBSCRIPTION'),
    setupFee: editableFields.setupFee.default('0'),
    trialDays: editableFields.trialDays.default(0),
    isPublic: editableFields.isPublic.default(false),
    onCreditExhaustion: editableFields.onCreditExhaustion.default('CREDIT_EXHAUSTION_ACTION_SUSPEND'),
  })
  .refine(oneRegionSpelling, ONE_REGION_SPELLING)
  .refine((b) => b.regionIds !== undefined || b.regionId !== undefined, {
    error: 'give the regions the plan sells in',
    path: ['regionIds'],
  })
  .transform((b) => {
    const { regionIds, ...rest } = withRegionIds(b);
    return {
      ...rest,
      regionIds: regionIds ?? [],
      onCreditExhaustion: creditExhaustion.fromWire(b.onCreditExhaustion),
    };
  });

export const updatePlanBody = z
  .strictObject(editableFields)
  .partial()
  .refine(oneRegionSpelling, ONE_REGION_SPELLING)
  .transform((b) => {
    const { onCreditExhaustion, ...rest } = withRegionIds(b);
    return {
      ...rest,
      ...(onCreditExhaustion !== undefined && {
        onCreditExhaustion: creditExhaustion.fromWire(onCreditExhaustion),
      }),
    };
  });

export const listPlansQuery = z.object({
  search: z.string().max(100).optional().describe('A piece of the name or code.'),
  filterCode: z.string().max(40).optional().describe('A whole code, like SC-GC-1C-1G-20.'),
  filterComputeType: z
    .enum([...COMPUTE_TYPES, ...COMPUTE_TYPE_ABBREVIATIONS])
    .optional()
    .transform((t) => (t === undefined ? undefined : findComputeType(t)))
    .describe('A compute type, in full or as in codes (GC, HF, …).'),
  billingType: z.enum(BILLING_TYPES).optional(),
  regionId: z.uuid().optional().describe('Plans that sell in this region, among others.'),
});

export const assignableNodesQuery = z.object({
  regionId: z.uuid(),
  planId: z.uuid().optional().describe('Keep only the nodes this plan may be assigned to.'),
});

const planPriceView = z.object({
  id: z.string(),
  billingPeriod: z.enum(BILLING_PERIODS),
  currency: z.string(),
  unitAmount: z.string(),
});

export const planView = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    code: z.string(),
    name: z.string(),
    computeCategory: z.enum(COMPUTE_CATEGORIES),
    computeType: z.enum(COMPUTE_TYPES),
    vcpus: z.number().int(),
    ramGb: z.number().int().describe('GiB (1024³ bytes).'),
    diskGb: z.number().int().describe('GiB.'),
    bandwidthAllowanceGb: z.number().int().describe('GiB per bandwidthPeriod; 0 is unlimited.'),
    bandwidthPeriod: z.enum(BILLING_PERIODS),
    networkRateLimitMbps: z.number().int(),
    cpuUnits: z.number().int(),
    cpuLimit: z.number(),
    billingType: z.enum(BILLING_TYPES),
    currency: z.string(),
    planPrices: z.array(planPriceView),
    setupFee: z.string(),
    trialDays: z.number().int(),
    regionIds: z
      .array(z.string())
      .describe('Where the plan sells, in your order; empty once the plan is deleted.'),
    regionId: z
      .string()
      .nullable()
      .describe('The first of regionIds, for one-region clients; null once the plan is deleted.'),
    nodeIds: z.array(z.string()).describe('Empty once the plan is deleted.'),
    isPublic: z.boolean(),
    onCreditExhaustion: creditExhaustion.schema,
    revision: z
      .number()
      .int()
      .describe('Counts the changes to the plan; a VM records the revision it was ordered at.'),
    status: z.enum(['STATUS_ACTIVE', 'STATUS_SOFT_DELETED']),
    createTime: z.string(),
    updateTime: z.string(),
  })
  .meta({ id: 'Plan' });

export function toPlanView(p: Plan): z.infer<typeof planView> {
  return {
    id: p.id,
    organizationId: p.organizationId,
    code: p.code,
    name: p.name,
    computeCategory: p.computeCategory,
    computeType: p.computeType,
    vcpus: p.vcpus,
    ramGb: p.ramGb,
    diskGb: p.diskGb,
    bandwidthAllowanceGb: p.bandwidthAllowanceGb,
    bandwidthPeriod: p.bandwidthPeriod,
    networkRateLimitMbps: p.networkRateLimitMbps,
    cpuUnits: p.cpuUnits,
    cpuLimit: p.cpuLimit,
    billingType: p.billingType,
    currency: p.currency,
    planPrices: p.planPrices.map((price) => ({ ...price })),
    setupFee: p.setupFee,
    trialDays: p.trialDays,
    regionIds: [...p.regionIds],
    regionId: p.regionIds[0] ?? null,
    nodeIds: [...p.nodeIds],
    isPublic: p.isPublic,
    onCreditExhaustion: creditExhaustion.toWire(p.onCreditExhaustion),
    revision: p.revision,
    status: p.deletedAt === null ? 'STATUS_ACTIVE' : 'STATUS_SOFT_DELETED',
    createTime: p.createdAt.toISOString(),
    updateTime: p.updatedAt.toISOString(),
  };
}

export const assignableNodeView = z.object({
  id: z.string(),
  name: z.string(),
  regionId: z.string(),
  computeType: z.enum(NODE_COMPUTE_TYPES),
  capacity: z
    .enum(['CAPACITY_FITS', 'CAPACITY_UNKNOWN'])
    .optional()
    .describe(
      'With planId: CAPACITY_FITS when the node reported enough cores, memory and VM storage for one VM of the plan; CAPACITY_UNKNOWN while it has not reported them (preflight checks again). Nodes known to be too small are left out.',
    ),
});

export function toAssignableNodeView({ node, capacity }: AssignableNode): z.infer<typeof assignableNodeView> {
  return {
    id: node.id,
    name: node.name,
    regionId: node.regionId,
    computeType: node.computeType,
    ...(capacity !== undefined && { capacity }),
  };
}

const planConfig = z.strictObject({
  name: ruled(z.string().max(PLAN_LIMITS.name.max), planNameProblem).optional(),
  billingType: editableFields.billingType.default('BILLING_TYPE_SUBSCRIPTION'),
  planPrices,
  setupFee: editableFields.setupFee.default('0'),
});

export const calculateBody = z.strictObject({
  planId: z.uuid().optional().describe('One of your plans; or give planConfig.'),
  planConfig: planConfig.optional().describe('Prices of a plan not saved yet; or give planId.'),
  billingPeriod: z.enum(BILLING_PERIODS),
  hours: z
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .optional()
    .describe(
      'Usage plans only: hours used in the period, capped at its hours (730 a month). Default: all of them.',
    ),
  includeSetupFee: z.boolean().default(false),
  addons: z
    .array(
      z.strictObject({
        addonId: z
          .uuid()
          .optional()
          .describe('One of your addons compatible with the plan; or give pricing.'),
        pricing: addonPricing.optional(),
        quantity: z.number().int().min(1).max(1000).default(1),
      }),
    )
    .max(50)
    .default([]),
  taxRatePercent: percentage.default(0),
});

const lineItemView = z.object({
  productType: z.enum(['PRODUCT_TYPE_PLAN', 'PRODUCT_TYPE_ADDON']),
  description: z.string(),
  referenceId: z.string().optional(),
  quantity: z.number().int(),
  unitAmount: z.string(),
  amount: z.string(),
});

export const quoteView = z.object({
  currency: z.string(),
  billingPeriod: z.enum(BILLING_PERIODS),
  chargedHours: z.number().int(),
  lineItems: z.array(lineItemView),
  subtotal: z.string(),
  tax: z.string(),
  total: z.string(),
});

export function toQuoteView(q: PriceQuote): z.infer<typeof quoteView> {
  const format = formatMoneyAmount;
  return {
    currency: q.currency,
    billingPeriod: q.billingPeriod,
    chargedHours: q.chargedHours,
    lineItems: q.lineItems.map((i) => ({
      productType: i.productType,
      description: i.description,
      ...(i.referenceId !== undefined && { referenceId: i.referenceId }),
      quantity: i.quantity,
      unitAmount: format(i.unitAmount),
      amount: format(i.amount),
    })),
    subtotal: format(q.subtotal),
    tax: format(q.tax),
    total: format(q.total),
  };
}
