import { encodeSampleValue } from '@noderings/fleet';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import { LOG_FILTER_FIELDS, type SeriesRecord } from './fleet-telemetry.repository.js';
import type { FleetTelemetryService } from './fleet-telemetry.service.js';
import { environmentFilter, FLEET_PREFIX, PROVIDER, sampleValueView, timeQuery } from './fleet.schemas.js';

const tags = ['FleetService'];
const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const LABEL_PARAMETER = 'label.';
const MAX_LOG_ENTRIES = 1000;

const labelsView = z.record(z.string(), z.string());

const seriesView = z
  .object({
    id: z.string(),
    name: z.string(),
    labels: labelsView,
    latestValue: sampleValueView.nullable(),
    latestAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'FleetSeries' });

function toSeriesView(s: SeriesRecord): z.infer<typeof seriesView> {
  return {
    id: s.id,
    name: s.name,
    labels: { ...s.labels },
    latestValue: s.latestValue === null ? null : encodeSampleValue(s.latestValue),
    latestAt: s.latestAt?.toISOString() ?? null,
  };
}

const metricName = z.string().max(200).regex(METRIC_NAME, 'must be a metric name');
const POINTS_PARAMETERS = new Set(['environmentId', 'name', 'from', 'to']);

const pointsQuery = z
  .object({
    environmentId: z.uuid(),
    name: metricName,
    from: timeQuery.optional().describe('Default: an hour before to.'),
    to: timeQuery.optional().describe('Default: now.'),
  })
  .catchall(z.string().max(1024))
  .superRefine((query, ctx) => {
    for (const key of Object.keys(query)) {
      if (POINTS_PARAMETERS.has(key)) continue;
      if (!key.startsWith(LABEL_PARAMETER) || !LABEL_NAME.test(key.slice(LABEL_PARAMETER.length)))
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: 'is not a known parameter (label.<name>=<value> filters)',
        });
    }
  })
  .describe('label.<name>=<value> keeps the series carrying that label value; several are all required.');

const logField = z.string().min(1).max(254).describe('Exact, or a prefix with a trailing * (nginx*).');

/** Series, points, logs and assets of a provider's agents. */
export const fleetTelemetryRoutes: FastifyPluginCallbackZod<{ telemetry: FleetTelemetryService }> = (
  app,
  { telemetry },
  done,
) => {
  app.get(
    `${FLEET_PREFIX}/agents/:id/series`,
    {
      config: { access: PROVIDER },
      schema: {
        tags,
        summary: "The fleet agent's series (name and labels) with their newest value and its time.",
        params: idParams,
        querystring: pageQuery.extend({ name: metricName.optional() }),
        response: { 200: z.object({ series: z.array(seriesView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const { name, ...page } = request.query;
      const result = await telemetry.agentSeries(
        tenantOf(request).organizationId,
        request.params.id,
        name,
        page,
      );
      return { series: result.items.map(toSeriesView), totalCount: result.totalCount };
    },
  );

  app.get(
    `${FLEET_PREFIX}/series/points`,
    {
      config: { access: PROVIDER },
      schema: {
        tags,
        summary: 'Points of the series of an environment with this name and labels (label.<name>=<value>).',
        querystring: pointsQuery,
        response: {
          200: z.object({
            series: z.array(
              seriesView.omit({ latestValue: true, latestAt: true }).extend({
                agentId: z.string(),
                points: z.array(z.object({ time: z.iso.datetime(), value: sampleValueView })),
              }),
            ),
          }),
        },
      },
    },
    async (request) => {
      const { environmentId, name, from, to, ...rest } = request.query;
      const labels: Record<string, string> = {};
      for (const [key, value] of Object.entries(rest)) labels[key.slice(LABEL_PARAMETER.length)] = value;
      const series = await telemetry.points(tenantOf(request).organizationId, {
        environmentId,
        name,
        labels,
        from: from === undefined ? undefined : new Date(from),
        to: to === undefined ? undefined : new Date(to),
      });
      return {
        series: series.map((s) => ({
          id: s.id,
          agentId: s.agentId,
          name: s.name,
          labels: { ...s.labels },
          points: s.points.map((p) => ({ time: p.time.toISOString(), value: encodeSampleValue(p.value) })),
        })),
      };
    },
  );

  app.get(
    `${FLEET_PREFIX}/logs`,
    {
      config: { access: PROVIDER },
      schema: {
        tags,
        summary: 'Log entries of the fleet agents, newest first.',
        querystring: z.object({
          environmentId: environmentFilter,
          agentId: z.uuid().optional(),
          k8s_namespace: logField.optional(),
          k8s_pod: logField.optional(),
          k8s_container: logField.optional(),
          k8s_pod_uid: logField.optional(),
          from: timeQuery.optional(),
          to: timeQuery.optional(),
          limit: z.coerce.number().int().min(1).max(MAX_LOG_ENTRIES).default(100),
        }),
        response: {
          200: z.object({
            entries: z.array(
              z.object({
                time: z.iso.datetime(),
                agentId: z.string(),
                stream: z.enum(['stdout', 'stderr']),
                line: z.string(),
                fields: labelsView,
              }),
            ),
          }),
        },
      },
    },
    async (request) => {
      const { environmentId, agentId, from, to, limit } = request.query;
      const fields: Partial<Record<(typeof LOG_FILTER_FIELDS)[number], string>> = {};
      for (const field of LOG_FILTER_FIELDS) {
        const value = request.query[field];
        if (value !== undefined) fields[field] = value;
      }
      const entries = await telemetry.logs(tenantOf(request).organizationId, {
        environmentId,
        agentId,
        fields,
        from: from === undefined ? undefined : new Date(from),
        to: to === undefined ? undefined : new Date(to),
        limit,
      });
      return {
        entries: entries.map((e) => ({
          time: e.time.toISOString(),
          agentId: e.agentId,
          stream: e.stream,
          line: e.line,
          fields: { ...e.fields },
        })),
      };
    },
  );

  app.get(
    `${FLEET_PREFIX}/assets`,
    {
      config: { access: PROVIDER },
      schema: {
        tags,
        summary:
          "Services the fleet agents' integration collectors found (databases, caches, web servers, …).",
        querystring: pageQuery.extend({ environmentId: environmentFilter }),
        response: {
          200: z.object({
            assets: z.array(
              z
                .object({
                  id: z.string(),
                  environmentId: z.string(),
                  agentId: z.string().nullable(),
                  hostName: z.string(),
                  assetType: z.string(),
                  integration: z.string(),
                  target: z.string(),
                  status: z.string(),
                  details: labelsView,
                  firstSeenAt: z.iso.datetime(),
                  lastSeenAt: z.iso.datetime(),
                })
                .meta({ id: 'FleetAsset' }),
            ),
            totalCount: z.number().int(),
          }),
        },
      },
    },
    async (request) => {
      const { environmentId, ...page } = request.query;
      const result = await telemetry.assets(tenantOf(request).organizationId, environmentId, page);
      return {
        assets: result.items.map((a) => ({
          ...a,
          details: { ...a.details },
          firstSeenAt: a.firstSeenAt.toISOString(),
          lastSeenAt: a.lastSeenAt.toISOString(),
        })),
        totalCount: result.totalCount,
      };
    },
  );
  done();
};
