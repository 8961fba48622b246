import {
  BILLING_PERIODS,
  BILLING_TYPES,
  COMPUTE_CATEGORIES,
  COMPUTE_TYPE_ABBREVIATIONS,
  COMPUTE_TYPES,
  findComputeType,
  PLAN_LIMITS,
  UNLIMITED,
} from '@noderings/domain';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams } from '../../http/id-params.js';
import { currencyCode, moneyAmount } from '../../http/money-schema.js';
import { pageQuery } from '../../http/pagination.js';
import type { RouteAccess } from '../../http/route-access.js';
import type { OfferFilter, OfferSort, Sku } from './marketplace.repository.js';
import type { ListedOffer, Location, MarketplaceService, ResolvedOffer } from './marketplace.service.js';

const ANYONE: RouteAccess = { kind: 'public' };
const TAGS = ['MarketplaceService'];
const PRICE_SORTS = [
  'PROVIDER_PLAN_PRICE_SORT_LEAST_EXPENSIVE_FIRST',
  'PROVIDER_PLAN_PRICE_SORT_MOST_EXPENSIVE_FIRST',
] as const;

function minimum(limits: { readonly min: number; readonly max: number }, what: string) {
  return z.coerce
    .number()
    .int()
    .min(limits.min)
    .max(limits.max)
    .optional()
    .describe(`At least this many ${what}.`);
}

const offerFilters = {
  filterCountry: z.string().max(100).optional().describe('A country of the region catalogue, like Germany.'),
  filterCity: z
    .string()
    .max(100)
    .optional()
    .describe('A city of the catalogue, by name (Frankfurt) or id (de-fra).'),
  filterBillingType: z.enum(BILLING_TYPES).optional(),
  filterComputeType: z
    .enum([...COMPUTE_TYPES, ...COMPUTE_TYPE_ABBREVIATIONS])
    .optional()
    .transform((t) => (t === undefined ? undefined : findComputeType(t)))
    .describe('A compute type, in full or as in codes (GC, HF, …).'),
  filterComputeCategory: z.enum(COMPUTE_CATEGORIES).optional(),
  filterMinVcpus: minimum(PLAN_LIMITS.vcpus, 'vCPUs'),
  filterMinRamGb: minimum(PLAN_LIMITS.ramGb, 'GiB of memory'),
  filterMinDiskGb: minimum(PLAN_LIMITS.diskGb, 'GiB of disk'),
  filterMaxMonthlyPrice: moneyAmount
    .optional()
    .describe('The price per month at most; a price of another period counts by its hours (730 a month).'),
  filterCurrency: currencyCode.optional().describe('The currency of filterMaxMonthlyPrice, which needs it.'),
  filterIpv6AvailableOnly: z.stringbool().default(false).describe('Only offers whose VMs get IPv6.'),
  filterUnlimitedBandwidthOnly: z
    .stringbool()
    .default(false)
    .describe('Only offers without a traffic allowance.'),
};

type OfferQuery = z.infer<z.ZodObject<typeof offerFilters>>;

const needsCurrency = (q: {
  filterMaxMonthlyPrice?: string | undefined;
  filterCurrency?: string | undefined;
}) => q.filterMaxMonthlyPrice === undefined || q.filterCurrency !== undefined;
const currencyRule = { message: 'is required with filterMaxMonthlyPrice', path: ['filterCurrency'] };

const skusQuery = pageQuery.extend(offerFilters).refine(needsCurrency, currencyRule);
const providersQuery = pageQuery
  .extend({
    ...offerFilters,
    filterPlanCode: z.string().min(1).max(40).describe('The SKU, like SC-GC-2C-4G-40.'),
    search: z.string().max(100).optional().describe("A piece of the provider's name."),
    planPriceSort: z.enum(PRICE_SORTS).default('PROVIDER_PLAN_PRICE_SORT_LEAST_EXPENSIVE_FIRST'),
  })
  .refine(needsCurrency, currencyRule);

const priceView = z.object({
  billingPeriod: z.enum(BILLING_PERIODS),
  currency: z.string(),
  unitAmount: z.string(),
});
const monthlyPrice = z.object({ currency: z.string(), amount: z.string() });

const skuView = z
  .object({
    planCode: z.string(),
    billingType: z.enum(BILLING_TYPES),
    computeType: z.enum(COMPUTE_TYPES),
    computeCategory: z.enum(COMPUTE_CATEGORIES),
    vcpus: z.number().int(),
    ramGb: z.number().int().describe('GiB (1024³ bytes).'),
    diskGb: z.number().int().describe('GiB.'),
    offerCount: z.number().int().describe('Providers offering it where the filters look.'),
    lowestMonthlyPrices: z.array(monthlyPrice).describe('The cheapest offer per currency, per month.'),
  })
  .meta({ id: 'MarketplaceSku' });

const regionView = z.object({
  regionId: z.string(),
  cityId: z.string(),
  city: z.string(),
  country: z.string(),
});

const commonOfferFields = {
  planId: z.string(),
  planCode: z.string(),
  planName: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  billingType: z.enum(BILLING_TYPES),
  vcpus: z.number().int(),
  ramGb: z.number().int().describe('GiB (1024³ bytes).'),
  diskGb: z.number().int().describe('GiB.'),
  bandwidthAllowanceGb: z
    .number()
    .int()
    .describe(`GiB (1024³ bytes) per bandwidthPeriod; ${String(UNLIMITED)} is unlimited.`),
  bandwidthPeriod: z.enum(BILLING_PERIODS),
  unlimitedBandwidth: z.boolean(),
  networkRateLimitMbps: z.number().int(),
  planPrices: z.array(priceView),
  monthlyPrice,
  setupFee: z.string(),
  trialDays: z.number().int(),
};

const providerInfoView = z
  .object({
    ...commonOfferFields,
    planRegions: z.array(regionView),
    hasCapacityInFilteredRegion: z
      .boolean()
      .describe('A node of the offer can take one more VM now (the capacity rule a purchase applies).'),
    ipv6AvailableInFilteredRegion: z.boolean(),
  })
  .meta({ id: 'MarketplaceProviderInfo' });

const resolvedOfferView = z
  .object({
    ...commonOfferFields,
    computeType: z.enum(COMPUTE_TYPES),
    computeCategory: z.enum(COMPUTE_CATEGORIES),
    regionId: z.string(),
    regionCity: z.string(),
    regionCountry: z.string(),
    distros: z.array(z.string()).describe('The distros an order may choose.'),
    hasCapacity: z.boolean(),
    ipv6Available: z.boolean(),
  })
  .meta({ id: 'MarketplaceOffer' });

function locationOf(q: Pick<OfferQuery, 'filterCountry' | 'filterCity'>): Location {
  return { country: q.filterCountry, city: q.filterCity };
}

function filterOf(q: OfferQuery): OfferFilter {
  return {
    billingType: q.filterBillingType,
    computeType: q.filterComputeType,
    computeCategory: q.filterComputeCategory,
    minVcpus: q.filterMinVcpus,
    minRamGb: q.filterMinRamGb,
    minDiskGb: q.filterMinDiskGb,
    maxMonthlyPrice:
      q.filterMaxMonthlyPrice === undefined || q.filterCurrency === undefined
        ? undefined
        : { amount: q.filterMaxMonthlyPrice, currency: q.filterCurrency },
    ipv6AvailableOnly: q.filterIpv6AvailableOnly,
    unlimitedBandwidthOnly: q.filterUnlimitedBandwidthOnly,
  };
}

/** Values the database holds are ours; one outside the enums is a bug worth a loud failure. */
function known<T extends string>(values: readonly T[], value: string, what: string): T {
  const found = values.find((v) => v === value);
  if (found === undefined) throw new Error(`${what} holds an unknown value: ${value}`);
  return found;
}

function commonOfferView(o: ListedOffer) {
  return {
    planId: o.planId,
    planCode: o.planCode,
    planName: o.planName,
    organizationId: o.organizationId,
    organizationName: o.organizationName,
    billingType: known(BILLING_TYPES, o.billingType, 'plans.billing_type'),
    vcpus: o.vcpus,
    ramGb: o.ramGb,
    diskGb: o.diskGb,
    bandwidthAllowanceGb: o.bandwidthAllowanceGb,
    bandwidthPeriod: known(BILLING_PERIODS, o.bandwidthPeriod, 'plans.bandwidth_period'),
    unlimitedBandwidth: o.bandwidthAllowanceGb === UNLIMITED,
    networkRateLimitMbps: o.networkRateLimitMbps,
    planPrices: o.planPrices.map((p) => ({
      billingPeriod: known(BILLING_PERIODS, p.billingPeriod, 'plan_prices.billing_period'),
      currency: p.currency,
      unitAmount: p.unitAmount,
    })),
    monthlyPrice: { currency: o.currency, amount: o.monthlyPrice },
    setupFee: o.setupFee,
    trialDays: o.trialDays,
  };
}

function toSkuView(s: Sku): z.infer<typeof skuView> {
  return {
    ...s,
    billingType: known(BILLING_TYPES, s.billingType, 'plans.billing_type'),
    computeType: known(COMPUTE_TYPES, s.computeType, 'plans.compute_type'),
    computeCategory: known(COMPUTE_CATEGORIES, s.computeCategory, 'plans.compute_category'),
    lowestMonthlyPrices: s.lowestMonthlyPrices.map((p) => ({ ...p })),
  };
}

function toProviderInfoView(o: ListedOffer): z.infer<typeof providerInfoView> {
  return {
    ...commonOfferView(o),
    planRegions: [
      { regionId: o.regionId, cityId: o.cityId, city: o.city?.name ?? '', country: o.city?.country ?? '' },
    ],
    hasCapacityInFilteredRegion: o.hasCapacity,
    ipv6AvailableInFilteredRegion: o.ipv6Available,
  };
}

function toResolvedOfferView(o: ResolvedOffer): z.infer<typeof resolvedOfferView> {
  return {
    ...commonOfferView(o),
    computeType: known(COMPUTE_TYPES, o.computeType, 'plans.compute_type'),
    computeCategory: known(COMPUTE_CATEGORIES, o.computeCategory, 'plans.compute_category'),
    regionId: o.regionId,
    regionCity: o.city?.name ?? '',
    regionCountry: o.city?.country ?? '',
    distros: [...o.distros],
    hasCapacity: o.hasCapacity,
    ipv6Available: o.ipv6Available,
  };
}

function sortOf(sort: (typeof PRICE_SORTS)[number]): OfferSort {
  return sort === 'PROVIDER_PLAN_PRICE_SORT_MOST_EXPENSIVE_FIRST'
    ? 'MOST_EXPENSIVE_FIRST'
    : 'LEAST_EXPENSIVE_FIRST';
}

export const marketplaceRoutes: FastifyPluginCallbackZod<{ marketplace: MarketplaceService }> = (
  app,
  { marketplace },
  done,
) => {
  app.get(
    '/v1/marketplace/plans',
    {
      config: { access: ANYONE },
      schema: {
        tags: TAGS,
        summary: 'The plan codes (SKUs) on sale, smallest first, with how many providers offer each.',
        description: 'Only plans that pass preflight are listed. No sign-in needed.',
        querystring: skusQuery,
        response: { 200: z.object({ skus: z.array(skuView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const { page, pageSize, ...query } = request.query;
      const result = await marketplace.skus(locationOf(query), filterOf(query), { page, pageSize });
      return { skus: result.items.map(toSkuView), totalCount: result.totalCount };
    },
  );

  app.get(
    '/v1/marketplace/providers',
    {
      config: { access: ANYONE },
      schema: {
        tags: TAGS,
        summary: 'The offers of one plan code, one per provider, by price.',
        description:
          'hasCapacityInFilteredRegion is worked out on each call with the rule a purchase applies. No sign-in needed.',
        querystring: providersQuery,
        response: { 200: z.object({ providers: z.array(providerInfoView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const { page, pageSize, filterPlanCode, search, planPriceSort, ...query } = request.query;
      const result = await marketplace.offers(
        locationOf(query),
        { ...filterOf(query), planCode: filterPlanCode, providerSearch: search },
        sortOf(planPriceSort),
        { page, pageSize },
      );
      return { providers: result.items.map(toProviderInfoView), totalCount: result.totalCount };
    },
  );

  app.get(
    '/v1/marketplace/plans/:id',
    {
      config: { access: ANYONE },
      schema: {
        tags: TAGS,
        summary:
          'One offer, resolved for an order form: specs, prices, region and the distros to choose from.',
        params: idParams,
        response: { 200: z.object({ offer: resolvedOfferView }) },
      },
    },
    async (request) => ({ offer: toResolvedOfferView(await marketplace.offer(request.params.id)) }),
  );

  app.get(
    '/v1/marketplace/regions',
    {
      config: { access: ANYONE },
      schema: {
        tags: TAGS,
        summary: 'The countries and cities where something is on sale.',
        response: {
          200: z.object({
            regions: z.array(z.object({ country: z.string(), city: z.string(), cityId: z.string() })),
          }),
        },
      },
    },
    async () => ({
      regions: (await marketplace.locations()).map((c) => ({
        country: c.country,
        city: c.name,
        cityId: c.id,
      })),
    }),
  );

  done();
};
