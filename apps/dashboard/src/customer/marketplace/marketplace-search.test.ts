import { describe, expect, it } from 'vitest';

import type { MarketplaceSku } from '../../api/api-resources.js';
import {
  bandwidthLabel,
  filtersFromSearch,
  filtersToSearch,
  inStock,
  NO_FILTERS,
  offerQuery,
  skuQuery,
  sortSkus,
  validateFilters,
} from './marketplace-search.js';

function sku(planCode: string, vcpus: number, prices: Record<string, string>): MarketplaceSku {
  return {
    planCode,
    billingType: 'BILLING_TYPE_SUBSCRIPTION',
    computeType: 'COMPUTE_TYPE_GENERAL_COMPUTE',
    computeCategory: 'COMPUTE_CATEGORY_SHARED_COMPUTE',
    vcpus,
    ramGb: vcpus * 2,
    diskGb: vcpus * 20,
    offerCount: 1,
    lowestMonthlyPrices: Object.entries(prices).map(([currency, amount]) => ({ currency, amount })),
  };
}

describe('marketplace filters', () => {
  it('survive a round trip through the address, which stays plain without filters', () => {
    const filters = {
      ...NO_FILTERS,
      country: 'Germany',
      minVcpus: '2',
      inStockOnly: true,
      sort: 'price-desc' as const,
    };
    expect(filtersFromSearch(filtersToSearch(filters))).toEqual(filters);
    expect(filtersToSearch(NO_FILTERS).toString()).toBe('');
  });

  it('send a currency only with a maximum price, as the API requires', () => {
    expect(skuQuery(NO_FILTERS, 0)).toMatchObject({ filterCurrency: undefined });
    expect(skuQuery({ ...NO_FILTERS, maxMonthlyPrice: '20', currency: 'EUR' }, 0)).toMatchObject({
      filterMaxMonthlyPrice: '20',
      filterCurrency: 'EUR',
    });
  });

  it('ask for one SKU’s offers cheapest first, under the same location', () => {
    expect(offerQuery({ ...NO_FILTERS, city: 'Frankfurt' }, 'SC-GC-2C-4G-40')).toMatchObject({
      filterPlanCode: 'SC-GC-2C-4G-40',
      filterCity: 'Frankfurt',
      planPriceSort: 'PROVIDER_PLAN_PRICE_SORT_LEAST_EXPENSIVE_FIRST',
    });
  });

  it('refuse minimums the API would refuse', () => {
    const errors = validateFilters({
      ...NO_FILTERS,
      minVcpus: '0',
      minRamGb: 'lots',
      maxMonthlyPrice: '1.2.3',
      currency: 'EUR',
    });
    expect(Object.keys(errors).sort()).toEqual(['maxMonthlyPrice', 'minRamGb', 'minVcpus']);
    expect(Object.keys(validateFilters({ ...NO_FILTERS, maxMonthlyPrice: '20' }))).toEqual(['currency']);
    expect(validateFilters({ ...NO_FILTERS, maxMonthlyPrice: '20', currency: 'EUR' })).toEqual({});
  });
});

describe('sortSkus', () => {
  const skus = [
    sku('B', 4, { USD: '24' }),
    sku('A', 2, { USD: '12' }),
    sku('C', 8, { EUR: '5' }),
    sku('D', 1, { USD: '12' }),
  ];

  it('sorts by the lowest price in the chosen currency, the rest last, ties by size', () => {
    expect(sortSkus(skus, 'price-asc', 'USD').map((s) => s.planCode)).toEqual(['D', 'A', 'B', 'C']);
    expect(sortSkus(skus, 'price-desc', 'USD').map((s) => s.planCode)).toEqual(['B', 'D', 'A', 'C']);
  });

  it('sorts by each SKU’s own price when no currency is chosen', () => {
    expect(
      sortSkus([sku('E', 1, { EUR: '30' }), sku('U', 1, { USD: '20' })], 'price-asc', '').map(
        (s) => s.planCode,
      ),
    ).toEqual(['U', 'E']);
  });

  it('compares amounts as numbers, not text', () => {
    expect(
      sortSkus([sku('X', 1, { USD: '9.5' }), sku('Y', 1, { USD: '10' })], 'price-asc', 'USD')[0]?.planCode,
    ).toBe('X');
  });
});

describe('stock and traffic', () => {
  it('is in stock when any offer has room', () => {
    expect(inStock([{ hasCapacityInFilteredRegion: false }, { hasCapacityInFilteredRegion: true }])).toBe(
      true,
    );
    expect(inStock([])).toBe(false);
  });

  it('calls an allowance of 0 unlimited', () => {
    expect(
      bandwidthLabel({
        unlimitedBandwidth: false,
        bandwidthAllowanceGb: 0,
        bandwidthPeriod: 'BILLING_PERIOD_MONTH',
      }),
    ).toBe('Unlimited');
    expect(
      bandwidthLabel({
        unlimitedBandwidth: false,
        bandwidthAllowanceGb: 1000,
        bandwidthPeriod: 'BILLING_PERIOD_MONTH',
      }),
    ).toBe('1000 GiB a month');
  });
});
