import {
  CITIES,
  DATACENTERS,
  datacenterFitsCity,
  FailedPreconditionError,
  findCity,
  findDatacenter,
  InvalidArgumentError,
  NotFoundError,
  type City,
  type Datacenter,
} from '@noderings/domain';

import type { Page, PageResult } from '../../http/pagination.js';
import type { RegionRecord, RegionRepository } from './region.repository.js';

/** A region as callers see it: the catalogue entries resolved. */
export interface Region {
  readonly id: string;
  readonly organizationId: string;
  readonly city: City;
  readonly datacenter: Datacenter;
  readonly createdAt: Date;
}

export class RegionService {
  constructor(
    private readonly deps: {
      readonly regions: Pick<RegionRepository, 'list' | 'findById' | 'insert' | 'delete' | 'isInUse'>;
    },
  ) {}

  async list(
    organizationId: string,
    filter: { search?: string | undefined; platformId?: string | undefined },
    page: Page,
  ): Promise<PageResult<Region>> {
    const search = filter.search?.trim().toLowerCase();
    const matching =
      search === undefined || search === ''
        ? undefined
        : {
            cityIds: CITIES.filter((c) => `${c.name} ${c.country}`.toLowerCase().includes(search)).map(
              (c) => c.id,
            ),
            datacenterIds: DATACENTERS.filter((d) => d.name.toLowerCase().includes(search)).map((d) => d.id),
          };
    const result = await this.deps.regions.list(
      organizationId,
      {
        ...(matching && { matching }),
        ...(filter.platformId !== undefined && { platformId: filter.platformId }),
      },
      page,
    );
    return { totalCount: result.totalCount, items: result.items.map(resolve) };
  }

  async get(organizationId: string, id: string): Promise<Region> {
    const record = await this.deps.regions.findById(organizationId, id);
    if (record === undefined) throw NotFoundError.of('Region', id);
    return resolve(record);
  }

  async create(
    organizationId: string,
    input: { cityCountryId: string; datacenterId: string },
  ): Promise<Region> {
    const city = findCity(input.cityCountryId);
    if (city === undefined)
      throw InvalidArgumentError.field('cityCountryId', 'is not a city of /v1/countries-cities');
    const datacenter = findDatacenter(input.datacenterId);
    if (datacenter === undefined)
      throw InvalidArgumentError.field('datacenterId', 'is not a datacenter of /v1/datacenters');
    if (!datacenterFitsCity(datacenter, city)) {
      throw InvalidArgumentError.field('datacenterId', `${datacenter.name} is not in ${city.name}`);
    }
    return resolve(
      await this.deps.regions.insert({ organizationId, cityId: city.id, datacenterId: datacenter.id }),
    );
  }

  async delete(organizationId: string, id: string): Promise<void> {
    const record = await this.deps.regions.findById(organizationId, id);
    if (record === undefined) throw NotFoundError.of('Region', id);
    if (await this.deps.regions.isInUse(id))
      throw new FailedPreconditionError('The region still has nodes: move or delete them first.');
    await this.deps.regions.delete(organizationId, id);
  }
}

function resolve(record: RegionRecord): Region {
  const city = findCity(record.cityId);
  const datacenter = findDatacenter(record.datacenterId);
  if (city === undefined || datacenter === undefined)
    throw new Error(`region ${record.id} points outside the catalogue`);
  return {
    id: record.id,
    organizationId: record.organizationId,
    city,
    datacenter,
    createdAt: record.createdAt,
  };
}
