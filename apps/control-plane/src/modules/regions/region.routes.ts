import { CITIES, DATACENTERS } from '@noderings/domain';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import type { Region, RegionService } from './region.service.js';

const regionView = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    cityCountry: z.object({ id: z.string(), cityName: z.string(), countryName: z.string() }),
    datacenter: z.object({ id: z.string(), name: z.string() }),
    createTime: z.string(),
  })
  .meta({ id: 'Region' });

export function toRegionView(r: Region): z.infer<typeof regionView> {
  return {
    id: r.id,
    organizationId: r.organizationId,
    cityCountry: { id: r.city.id, cityName: r.city.name, countryName: r.city.country },
    datacenter: { id: r.datacenter.id, name: r.datacenter.name },
    createTime: r.createdAt.toISOString(),
  };
}

const PROVIDER: RouteAccess = { kind: 'tenant', organizationType: 'ORGANIZATION_TYPE_PROVIDER' };
const catalogueQuery = z.object({ query: z.string().max(100).optional() });

export const regionRoutes: FastifyPluginCallbackZod<{ regions: RegionService }> = (
  app,
  { regions },
  done,
) => {
  app.get(
    '/v1/regions',
    {
      config: { access: PROVIDER },
      schema: {
        tags: ['RegionService'],
        querystring: pageQuery.extend({
          search: z.string().max(100).optional(),
          platformId: z.uuid().optional(),
        }),
        response: { 200: z.object({ regions: z.array(regionView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const { search, platformId, ...page } = request.query;
      const result = await regions.list(tenantOf(request).organizationId, { search, platformId }, page);
      return { regions: result.items.map(toRegionView), totalCount: result.totalCount };
    },
  );

  app.post(
    '/v1/regions',
    {
      config: { access: PROVIDER, audit: 'region.create' },
      schema: {
        tags: ['RegionService'],
        summary: 'Creates a region from a city and a datacenter of the catalogue.',
        body: z.strictObject({
          cityCountryId: z.string().min(1).max(64),
          datacenterId: z.string().min(1).max(64),
        }),
        response: { 201: regionView },
      },
    },
    async (request, reply) => {
      const region = await regions.create(tenantOf(request).organizationId, request.body);
      request.auditTarget = { type: 'region', id: region.id };
      return reply.status(201).send(toRegionView(region));
    },
  );

  app.get(
    '/v1/regions/:id',
    {
      config: { access: PROVIDER },
      schema: { tags: ['RegionService'], params: idParams, response: { 200: regionView } },
    },
    async (request) => toRegionView(await regions.get(tenantOf(request).organizationId, request.params.id)),
  );

  app.delete(
    '/v1/regions/:id',
    {
      config: { access: PROVIDER, audit: 'region.delete' },
      schema: { tags: ['RegionService'], params: idParams, response: { 200: successResponse } },
    },
    async (request) => {
      await regions.delete(tenantOf(request).organizationId, request.params.id);
      return { success: true };
    },
  );

  app.get(
    '/v1/countries-cities',
    {
      config: { access: { kind: 'public' } },
      schema: {
        tags: ['RegionService'],
        summary: 'The cities regions can be in, by country.',
        querystring: catalogueQuery,
        response: {
          200: z.object({
            countries: z.array(
              z.object({ name: z.string(), cities: z.array(z.object({ id: z.string(), name: z.string() })) }),
            ),
          }),
        },
      },
    },
    (request) => {
      const query = request.query.query?.trim().toLowerCase() ?? '';
      const byCountry = new Map<string, { id: string; name: string }[]>();
      for (const city of CITIES) {
        if (query !== '' && !`${city.name} ${city.country}`.toLowerCase().includes(query)) continue;
        const cities = byCountry.get(city.country) ?? [];
        cities.push({ id: city.id, name: city.name });
        byCountry.set(city.country, cities);
      }
      return { countries: [...byCountry].map(([name, cities]) => ({ name, cities })) };
    },
  );

  app.get(
    '/v1/datacenters',
    {
      config: { access: { kind: 'public' } },
      schema: {
        tags: ['RegionService'],
        querystring: catalogueQuery,
        response: {
          200: z.object({
            datacenters: z.array(z.object({ id: z.string(), name: z.string(), cityId: z.string() })),
          }),
        },
      },
    },
    (request) => {
      const query = request.query.query?.trim().toLowerCase() ?? '';
      return {
        datacenters: DATACENTERS.filter((d) => query === '' || d.name.toLowerCase().includes(query)).map(
          (d) => ({ ...d }),
        ),
      };
    },
  );
  done();
};
