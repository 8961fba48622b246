import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { useRef, useState, type SubmitEvent } from 'react';
import { Link, useSearchParams } from 'react-router';

import { fieldErrorsOf } from '../../api/api-error.js';
import type { MarketplaceLocation, MarketplaceOffer, MarketplaceSku } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { SIZE_UNIT } from '../../format/bytes.js';
import { computeTypeName } from '../../format/display-names.js';
import { formatMoney } from '../../format/money.js';
import { paths } from '../../shell/navigation.js';
import { focusFirstInvalid } from '../../ui/focus-first-invalid.js';
import { FormError } from '../../ui/form-error.js';
import { CheckboxField, SelectField, TextField } from '../../ui/form-field.js';
import { hasErrors, type FieldErrors } from '../../ui/form-validation.js';
import { Page, Section } from '../../ui/page.js';
import { EmptyState, LoadError, Loading } from '../../ui/query-state.js';
import { StatusBadge } from '../../ui/status-badge.js';
import {
  filtersFromSearch,
  filtersToSearch,
  inStock,
  lowestPrice,
  NO_FILTERS,
  offerQuery,
  SKU_PAGE_SIZE,
  skuQuery,
  sortSkus,
  specsLabel,
  validateFilters,
  type MarketplaceFilters,
} from './marketplace-search.js';

export function MarketplacePage() {
  const api = useApi();
  const [search, setSearch] = useSearchParams();
  const applied = filtersFromSearch(search);
  const page = Math.max(0, Number(search.get('page') ?? '0') || 0);

  const skus = useQuery({
    queryKey: ['marketplace-skus', skuQuery(applied, page)],
    queryFn: () =>
      api.get<{ skus: MarketplaceSku[]; totalCount: number }>(
        '/v1/marketplace/plans',
        skuQuery(applied, page),
      ),
    placeholderData: keepPreviousData,
  });

  // Stock is a property of offers: with "in stock only", each SKU's offers are read under the same filters.
  const listed = skus.data?.skus ?? [];
  const stock = useQueries({
    queries: listed.map((sku) => ({
      queryKey: ['marketplace-offers', offerQuery(applied, sku.planCode)],
      queryFn: () =>
        api.get<{ providers: MarketplaceOffer[] }>(
          '/v1/marketplace/providers',
          offerQuery(applied, sku.planCode),
        ),
      enabled: applied.inStockOnly,
    })),
  });
  const stockOf = (index: number): boolean | undefined => {
    const offers = stock[index]?.data?.providers;
    return offers === undefined ? undefined : inStock(offers);
  };
  const checkingStock = applied.inStockOnly && stock.some((q) => q.isPending);

  const shown = sortSkus(
    listed.filter((_, i) => !applied.inStockOnly || stockOf(i) === true),
    applied.sort,
    applied.currency,
  );

  const apply = (filters: MarketplaceFilters) => {
    setSearch(filtersToSearch(filters));
  };

  return (
    <Page
      title="Marketplace"
      description="Compare VM plans from every provider on NodeRings, then choose an offer to order."
    >
      <FilterForm key={search.toString()} applied={applied} onApply={apply} searchError={skus.error} />
      <Section title="Plans" id="plans">
        <p role="status" className="result-count">
          {skus.isPending
            ? 'Searching…'
            : checkingStock
              ? 'Checking stock…'
              : skus.data === undefined
                ? ''
                : `${shown.length} ${shown.length === 1 ? 'plan' : 'plans'} found.`}
        </p>
        {skus.error !== null && skus.data === undefined && (
          <LoadError error={skus.error} retry={() => void skus.refetch()} />
        )}
        {skus.isPending && <Loading label="Loading plans…" />}
        {skus.data !== undefined && shown.length === 0 && !checkingStock && (
          <EmptyState>
            <p>No plan matches these filters. Try fewer filters or another location.</p>
          </EmptyState>
        )}
        <ul className="card-list">
          {shown.map((sku) => (
            <SkuCard
              key={`${sku.planCode}-${sku.billingType}`}
              sku={sku}
              currency={applied.currency}
              inStock={applied.inStockOnly ? stockOf(listed.indexOf(sku)) : undefined}
              search={filtersToSearch(applied).toString()}
            />
          ))}
        </ul>
        {skus.data !== undefined && skus.data.totalCount > SKU_PAGE_SIZE && (
          <Pager
            page={page}
            pages={Math.ceil(skus.data.totalCount / SKU_PAGE_SIZE)}
            go={(next) => {
              const params = filtersToSearch(applied);
              if (next > 0) params.set('page', String(next));
              setSearch(params);
            }}
          />
        )}
      </Section>
    </Page>
  );
}

function SkuCard({
  sku,
  currency,
  inStock: stocked,
  search,
}: {
  readonly sku: MarketplaceSku;
  readonly currency: string;
  readonly inStock: boolean | undefined;
  readonly search: string;
}) {
  const price = lowestPrice(sku, currency);
  const headingId = `sku-${sku.planCode}-${sku.billingType}`;
  return (
    <li className="card" aria-labelledby={headingId}>
      <h3 id={headingId}>{specsLabel(sku)}</h3>
      <p className="muted">
        <code>{sku.planCode}</code> · {computeTypeName(sku.computeType)}
      </p>
      <p className="price">
        {price === undefined
          ? 'No price listed'
          : `From ${formatMoney(price.amount, price.currency)} a month`}
      </p>
      <p>
        {sku.offerCount} {sku.offerCount === 1 ? 'offer' : 'offers'}
        {stocked !== undefined && (
          <>
            {' '}
            ·{' '}
            <StatusBadge tone={stocked ? 'good' : 'bad'}>{stocked ? 'In stock' : 'Out of stock'}</StatusBadge>
          </>
        )}
      </p>
      <Link
        className="button-link"
        to={`${paths.offers(sku.planCode)}${search === '' ? '' : `?${search}`}`}
        aria-label={`Compare offers for ${sku.planCode}`}
      >
        Compare offers
      </Link>
    </li>
  );
}

function Pager({
  page,
  pages,
  go,
}: {
  readonly page: number;
  readonly pages: number;
  readonly go: (n: number) => void;
}) {
  return (
    <nav aria-label="Pages of plans" className="pager">
      <button
        type="button"
        className="button-secondary"
        disabled={page === 0}
        onClick={() => {
          go(page - 1);
        }}
      >
        Previous page
      </button>
      <span>
        Page {page + 1} of {pages}
      </span>
      <button
        type="button"
        className="button-secondary"
        disabled={page + 1 >= pages}
        onClick={() => {
          go(page + 1);
        }}
      >
        Next page
      </button>
    </nav>
  );
}

/** The search form; it edits a draft and applies it on submit, so typing does not fire a search per key. */
function FilterForm({
  applied,
  onApply,
  searchError,
}: {
  readonly applied: MarketplaceFilters;
  readonly onApply: (filters: MarketplaceFilters) => void;
  readonly searchError: unknown;
}) {
  const api = useApi();
  const formRef = useRef<HTMLFormElement>(null);
  const [draft, setDraft] = useState(applied);
  const [errors, setErrors] = useState<FieldErrors>({});
  const locations = useQuery({
    queryKey: ['marketplace-regions'],
    queryFn: () => api.get<{ regions: MarketplaceLocation[] }>('/v1/marketplace/regions'),
    staleTime: 300_000,
  });
  const regions = locations.data?.regions ?? [];
  const countries = [...new Set(regions.map((r) => r.country))].sort();
  const cities = regions.filter((r) => draft.country === '' || r.country === draft.country);

  const set = <K extends keyof MarketplaceFilters>(key: K, value: MarketplaceFilters[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
  };
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = validateFilters(draft);
    setErrors(found);
    if (hasErrors(found)) focusFirstInvalid(formRef.current);
    else onApply(draft);
  };
  const apiErrors = fieldErrorsOf(searchError);
  const errorOf = (field: string, apiField: string) => errors[field] ?? apiErrors[apiField];

  return (
    <form ref={formRef} className="filters" onSubmit={submit} noValidate aria-label="Filter plans">
      <FormError
        error={searchError}
        fields={[
          'filterCountry',
          'filterCity',
          'filterMinVcpus',
          'filterMinRamGb',
          'filterMinDiskGb',
          'filterMaxMonthlyPrice',
          'filterCurrency',
        ]}
      />
      <div className="filter-grid">
        <SelectField
          label="Country"
          value={draft.country}
          placeholder="Any country"
          options={countries.map((c) => ({ value: c, label: c }))}
          onChange={(e) => {
            set('country', e.target.value);
            set('city', '');
          }}
          error={errorOf('country', 'filterCountry')}
        />
        <SelectField
          label="City"
          value={draft.city}
          placeholder="Any city"
          options={cities.map((c) => ({ value: c.city, label: `${c.city}, ${c.country}` }))}
          onChange={(e) => {
            set('city', e.target.value);
          }}
          error={errorOf('city', 'filterCity')}
        />
        <TextField
          label="Minimum vCPUs"
          inputMode="numeric"
          value={draft.minVcpus}
          onChange={(e) => {
            set('minVcpus', e.target.value);
          }}
          error={errorOf('minVcpus', 'filterMinVcpus')}
        />
        <TextField
          label={`Minimum memory (${SIZE_UNIT})`}
          inputMode="numeric"
          value={draft.minRamGb}
          onChange={(e) => {
            set('minRamGb', e.target.value);
          }}
          error={errorOf('minRamGb', 'filterMinRamGb')}
        />
        <TextField
          label={`Minimum disk (${SIZE_UNIT})`}
          inputMode="numeric"
          value={draft.minDiskGb}
          onChange={(e) => {
            set('minDiskGb', e.target.value);
          }}
          error={errorOf('minDiskGb', 'filterMinDiskGb')}
        />
        <TextField
          label="Maximum monthly price"
          inputMode="decimal"
          value={draft.maxMonthlyPrice}
          onChange={(e) => {
            set('maxMonthlyPrice', e.target.value);
          }}
          error={errorOf('maxMonthlyPrice', 'filterMaxMonthlyPrice')}
        />
        <TextField
          label="Currency"
          hint="Like EUR; needed with a maximum price."
          value={draft.currency}
          maxLength={3}
          autoCapitalize="characters"
          onChange={(e) => {
            set('currency', e.target.value.toUpperCase());
          }}
          error={errorOf('currency', 'filterCurrency')}
        />
        <SelectField
          label="Sort by price"
          value={draft.sort}
          options={[
            { value: 'price-asc', label: 'Lowest price first' },
            { value: 'price-desc', label: 'Highest price first' },
          ]}
          onChange={(e) => {
            set('sort', e.target.value === 'price-desc' ? 'price-desc' : 'price-asc');
          }}
        />
      </div>
      <CheckboxField
        label="In stock only"
        checked={draft.inStockOnly}
        onChange={(e) => {
          set('inStockOnly', e.target.checked);
        }}
      />
      <div className="form-actions">
        <button type="submit">Search</button>
        <button
          type="button"
          className="button-secondary"
          onClick={() => {
            setDraft(NO_FILTERS);
            setErrors({});
            onApply(NO_FILTERS);
          }}
        >
          Clear filters
        </button>
      </div>
    </form>
  );
}
