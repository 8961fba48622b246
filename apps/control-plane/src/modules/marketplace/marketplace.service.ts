import {
  CITIES,
  findCity,
  InvalidArgumentError,
  NotFoundError,
  PLAN_LIMITS,
  requestedAmounts,
  type City,
} from '@noderings/domain';

import type { Page, PageResult } from '../../http/pagination.js';
import { nodeRefusalReasons, type CandidateNodeRepository } from '../placement/index.js';
import type { MarketplaceRepository, Offer, OfferFilter, OfferSort, Sku } from './marketplace.repository.js';

/** Where a customer wants the VM: a country, a city in it, or anywhere when both are left out. */
export interface Location {
  readonly country?: string | undefined;
  /** A catalogue city's name (Frankfurt) or id (de-fra). */
  readonly city?: string | undefined;
}

export interface ListedOffer extends Offer {
  readonly city: City | undefined;
  /** A node of the plan can take one more VM now, by the rule a claim applies. */
  readonly hasCapacity: boolean;
}

export interface ResolvedOffer extends ListedOffer {
  /** What the order may ask for: the distros the plan's nodes in the region have templates for. */
  readonly distros: readonly string[];
  /** Every region the plan is offered in now, this one included, in the provider's order. */
  readonly regions: readonly { readonly regionId: string; readonly city: City | undefined }[];
}

/**
 * The customer's side of the catalogue, open to anyone signed in or not: SKUs, offers, one offer. Only
 * plans whose preflight passed are listed; whether an offer can take a VM right now is worked out on
 * each read with the claim's own rule (placement/node-eligibility.ts), not taken from the last preflight.
 */
export class MarketplaceService {
  constructor(
    private readonly deps: {
      readonly marketplace: Pick<MarketplaceRepository, 'skus' | 'offers' | 'cityIds' | 'distros'>;
      readonly nodes: Pick<CandidateNodeRepository, 'byIds' | 'usage'>;
    },
  ) {}

  skus(location: Location, filter: OfferFilter, page: Page): Promise<PageResult<Sku>> {
    return this.deps.marketplace.skus({ ...filter, cityIds: citiesOf(location) }, page);
  }

  async offers(
    location: Location,
    filter: OfferFilter,
    sort: OfferSort,
    page: Page,
  ): Promise<PageResult<ListedOffer>> {
    const result = await this.deps.marketplace.offers({ ...filter, cityIds: citiesOf(location) }, sort, page);
    return { items: await this.#listed(result.items), totalCount: result.totalCount };
  }

  /**
   * A listed offer, to fill an order form: the plan in `regionId`, or in its first listed region when left
   * out. NOT_FOUND when the plan is not listed (any more), or not in that region.
   */
  async offer(planId: string, regionId?: string): Promise<ResolvedOffer> {
    const { items } = await this.deps.marketplace.offers({ planId }, 'LEAST_EXPENSIVE_FIRST', {
      page: 0,
      pageSize: PLAN_LIMITS.regionIds.max,
    });
    const chosen = items.find((o) => regionId === undefined || o.regionId === regionId);
    const [listed] = await this.#listed(chosen === undefined ? [] : [chosen]);
    if (listed === undefined) throw NotFoundError.of('Offer', planId);
    return {
      ...listed,
      distros: await this.deps.marketplace.distros(listed.nodeIds),
      regions: items.map((o) => ({ regionId: o.regionId, city: findCity(o.cityId) })),
    };
  }

  /** The places with something to buy, by country then city. */
  async locations(): Promise<City[]> {
    const ids = await this.deps.marketplace.cityIds();
    return ids
      .flatMap((id) => findCity(id) ?? [])
      .sort((a, b) => a.country.localeCompare(b.country) || a.name.localeCompare(b.name));
  }

  async #listed(offers: readonly Offer[]): Promise<ListedOffer[]> {
    const nodeIds = [...new Set(offers.flatMap((o) => o.nodeIds))];
    const [nodes, usage] = await Promise.all([
      this.deps.nodes.byIds(nodeIds),
      this.deps.nodes.usage(nodeIds),
    ]);
    const byId = new Map(nodes.map((n) => [n.id, n]));
    return offers.map((offer) => {
      const request = requestedAmounts(offer);
      const hasCapacity = offer.nodeIds.some((id) => {
        const node = byId.get(id);
        return node !== undefined && nodeRefusalReasons(node, usage.get(id), request).length === 0;
      });
      return { ...offer, city: findCity(offer.cityId), hasCapacity };
    });
  }
}

/** The catalogue cities a location names; undefined when it names none (anywhere). */
function citiesOf(location: Location): string[] | undefined {
  const { country, city } = location;
  if (country === undefined && city === undefined) return undefined;
  if (country !== undefined && !CITIES.some((c) => sameText(c.country, country)))
    throw InvalidArgumentError.field(
      'query.filterCountry',
      `is not a country of the region catalogue: ${country}`,
    );
  const matches = CITIES.filter(
    (c) =>
      (country === undefined || sameText(c.country, country)) &&
      (city === undefined || sameText(c.name, city) || c.id === city.toLowerCase()),
  );
  if (city !== undefined && matches.length === 0)
    throw InvalidArgumentError.field(
      'query.filterCity',
      country === undefined
        ? `is not a city of the region catalogue: ${city}`
        : `is not a city in ${country}: ${city}`,
    );
  return matches.map((c) => c.id);
}

function sameText(a: string, b: string): boolean {
  return a.localeCompare(b, 'en', { sensitivity: 'base' }) === 0;
}
