import type { QueryParams } from '../../api/api-client.js';
import type { MarketplaceOffer, MarketplaceSku, Money } from '../../api/api-resources.js';
import { formatGiB } from '../../format/bytes.js';
import { billingPeriodName } from '../../format/display-names.js';
import {
  currencyCode,
  integerBetween,
  moneyAmount,
  optional,
  validate,
  type FieldErrors,
} from '../../ui/form-validation.js';

export type PriceSort = 'price-asc' | 'price-desc';

/** What a customer searches the marketplace for; kept in the address so a search can be shared. */
export interface MarketplaceFilters {
  readonly country: string;
  readonly city: string;
  readonly minVcpus: string;
  readonly minRamGb: string;
  readonly minDiskGb: string;
  readonly maxMonthlyPrice: string;
  readonly currency: string;
  readonly inStockOnly: boolean;
  readonly sort: PriceSort;
}

export const NO_FILTERS: MarketplaceFilters = {
  country: '',
  city: '',
  minVcpus: '',
  minRamGb: '',
  minDiskGb: '',
  maxMonthlyPrice: '',
  currency: '',
  inStockOnly: false,
  sort: 'price-asc',
};

const TEXT_FILTERS = [
  'country',
  'city',
  'minVcpus',
  'minRamGb',
  'minDiskGb',
  'maxMonthlyPrice',
  'currency',
] as const;

export function filtersFromSearch(params: URLSearchParams): MarketplaceFilters {
  const text = Object.fromEntries(
    TEXT_FILTERS.map((key) => [key, params.get(key) ?? NO_FILTERS[key]]),
  ) as Record<(typeof TEXT_FILTERS)[number], string>;
  return {
    ...text,
    inStockOnly: params.get('inStock') === 'true',
    sort: params.get('sort') === 'price-desc' ? 'price-desc' : 'price-asc',
  };
}

/** Only what differs from no filters, so the plain marketplace has a plain address. */
export function filtersToSearch(filters: MarketplaceFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of TEXT_FILTERS) {
    const value = filters[key].trim();
    if (value !== '' && value !== NO_FILTERS[key]) params.set(key, value);
  }
  if (filters.inStockOnly) params.set('inStock', 'true');
  if (filters.sort !== NO_FILTERS.sort) params.set('sort', filters.sort);
  return params;
}

/** The API's limits for the minimums (marketplace filters). */
export function validateFilters(filters: MarketplaceFilters): FieldErrors {
  const errors: Record<string, string> = validate(
    { ...filters, inStockOnly: '', sort: '' },
    {
      minVcpus: [optional(integerBetween(1, 512))],
      minRamGb: [optional(integerBetween(1, 4096))],
      minDiskGb: [optional(integerBetween(1, 1_048_576))],
      maxMonthlyPrice: [optional(moneyAmount)],
      currency: [optional(currencyCode)],
    },
  );
  if (filters.maxMonthlyPrice.trim() !== '' && filters.currency.trim() === '')
    errors.currency = 'Enter the currency of the maximum price, like EUR.';
  return errors;
}

function locationQuery(filters: MarketplaceFilters) {
  return { filterCountry: filters.country.trim(), filterCity: filters.city.trim() };
}

/** The filters as `GET /v1/marketplace/plans` and `…/providers` take them. */
function filterQuery(filters: MarketplaceFilters) {
  const price = filters.maxMonthlyPrice.trim();
  return {
    ...locationQuery(filters),
    filterMinVcpus: filters.minVcpus.trim(),
    filterMinRamGb: filters.minRamGb.trim(),
    filterMinDiskGb: filters.minDiskGb.trim(),
    filterMaxMonthlyPrice: price,
    // The API needs the currency of a maximum price, and only then.
    filterCurrency: price === '' ? undefined : filters.currency.trim(),
  };
}

export const SKU_PAGE_SIZE = 50;

export function skuQuery(filters: MarketplaceFilters, page: number): QueryParams {
  return { ...filterQuery(filters), page, pageSize: SKU_PAGE_SIZE };
}

/** The offers of one SKU, cheapest first, under the same filters (capacity is judged in their region). */
export function offerQuery(filters: MarketplaceFilters, planCode: string): QueryParams {
  return {
    ...filterQuery(filters),
    filterPlanCode: planCode,
    planPriceSort:
      filters.sort === 'price-desc'
        ? 'PROVIDER_PLAN_PRICE_SORT_MOST_EXPENSIVE_FIRST'
        : 'PROVIDER_PLAN_PRICE_SORT_LEAST_EXPENSIVE_FIRST',
    pageSize: 100,
  };
}

/** The SKU's lowest monthly price in the currency (any, when empty), else in the first currency it has. */
export function lowestPrice(sku: MarketplaceSku, currency: string): Money | undefined {
  return sku.lowestMonthlyPrices.find((p) => p.currency === currency) ?? sku.lowestMonthlyPrices[0];
}

/**
 * SKUs by their lowest monthly price (in the currency where they have one, those without last; with no
 * currency chosen, each by its first price), then by size, so equal prices keep a stable order.
 */
export function sortSkus(
  skus: readonly MarketplaceSku[],
  sort: PriceSort,
  currency: string,
): MarketplaceSku[] {
  const price = (sku: MarketplaceSku) => {
    const p =
      currency === ''
        ? sku.lowestMonthlyPrices[0]
        : sku.lowestMonthlyPrices.find((m) => m.currency === currency);
    return p === undefined ? undefined : Number(p.amount);
  };
  const direction = sort === 'price-desc' ? -1 : 1;
  return [...skus].sort((a, b) => {
    const pa = price(a);
    const pb = price(b);
    if (pa === undefined || pb === undefined) {
      if (pa !== pb) return pa === undefined ? 1 : -1;
    } else if (pa !== pb) return (pa - pb) * direction;
    return (
      a.vcpus - b.vcpus || a.ramGb - b.ramGb || a.diskGb - b.diskGb || a.planCode.localeCompare(b.planCode)
    );
  });
}

/** In stock: at least one offer has room in the filtered region right now. */
export function inStock(offers: readonly Pick<MarketplaceOffer, 'hasCapacityInFilteredRegion'>[]): boolean {
  return offers.some((o) => o.hasCapacityInFilteredRegion);
}

/** "2 vCPU · 4 GiB RAM · 40 GiB disk" */
export function specsLabel(specs: { vcpus: number; ramGb: number; diskGb: number }): string {
  return `${specs.vcpus} vCPU · ${formatGiB(specs.ramGb)} RAM · ${formatGiB(specs.diskGb)} disk`;
}

/** "1000 GiB a month", or "Unlimited". */
export function bandwidthLabel(
  offer: Pick<MarketplaceOffer, 'unlimitedBandwidth' | 'bandwidthAllowanceGb' | 'bandwidthPeriod'>,
): string {
  if (offer.unlimitedBandwidth || offer.bandwidthAllowanceGb === 0) return 'Unlimited';
  return `${formatGiB(offer.bandwidthAllowanceGb)} a ${billingPeriodName(offer.bandwidthPeriod)}`;
}
