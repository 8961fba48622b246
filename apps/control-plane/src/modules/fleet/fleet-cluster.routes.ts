import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { FleetCluster } from './fleet-cluster.repository.js';
import type { FleetClusterService } from './fleet-cluster.service.js';
import { environmentFilter, FLEET_PREFIX, hostnameSchema, PROVIDER, timeQuery } from './fleet.schemas.js';

const tags = ['FleetService'];

const clusterView = z
  .object({ id: z.string(), environmentId: z.string(), name: z.string(), createdAt: z.iso.datetime() })
  .meta({ id: 'FleetCluster' });

const hostView = z.object({ hostname: z.string(), linkedAt: z.iso.datetime() });

const restartPoints = z.array(z.object({ time: z.iso.datetime(), restarts: z.number() }));

const DURATION_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;
/** Prometheus' `step`: seconds, or a duration such as `30s`, `5m`, `1h`. */
const stepQuery = z
  .string()
  .regex(/^[1-9]\d{0,6}[smhd]?$/, 'must be whole seconds or a duration like 30s, 5m, 1h, 1d')
  .transform((text) => {
    const unit = /[smhd]$/.exec(text)?.[0] as keyof typeof DURATION_SECONDS | undefined;
    return Number.parseInt(text, 10) * DURATION_SECONDS[unit ?? 's'];
  });

const hostParams = z.object({ clusterId: z.uuid(), hostname: hostnameSchema });

function toClusterView(c: FleetCluster): z.infer<typeof clusterView> {
  return { id: c.id, environmentId: c.environmentId, name: c.name, createdAt: c.createdAt.toISOString() };
}

/** Kubernetes clusters of an environment, node-host linkage, and the cluster restarts query. */
export const fleetClusterRoutes: FastifyPluginCallbackZod<{ clusters: FleetClusterService }> = (
  app,
  { clusters },
  done,
) => {
  app.post(
    `${FLEET_PREFIX}/environments/:id/clusters`,
    {
      config: { access: PROVIDER, audit: 'fleetCluster.create' },
      schema: {
        tags,
        params: idParams,
        body: z.strictObject({ name: z.string().trim().min(1).max(100) }),
        response: { 201: clusterView },
      },
    },
    async (request, reply) => {
      const cluster = await clusters.create(
        tenantOf(request).organizationId,
        request.params.id,
        request.body.name,
      );
      request.auditTarget = { type: 'fleetCluster', id: cluster.id };
      return reply.status(201).send(toClusterView(cluster));
    },
  );

  app.get(
    `${FLEET_PREFIX}/clusters`,
    {
      config: { access: PROVIDER },
      schema: {
        tags,
        querystring: pageQuery.extend({ environmentId: environmentFilter }),
        response: { 200: z.object({ clusters: z.array(clusterView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const { environmentId, ...page } = request.query;
      const result = await clusters.list(tenantOf(request).organizationId, environmentId, page);
      return { clusters: result.items.map(toClusterView), totalCount: result.totalCount };
    },
  );

  app.get(
    `${FLEET_PREFIX}/clusters/:id`,
    {
      config: { access: PROVIDER },
      schema: {
        tags,
        params: idParams,
        response: { 200: clusterView.extend({ hosts: z.array(hostView) }) },
      },
    },
    async (request) => {
      const cluster = await clusters.get(tenantOf(request).organizationId, request.params.id);
      return {
        ...toClusterView(cluster),
        hosts: cluster.hosts.map((h) => ({ hostname: h.hostname, linkedAt: h.linkedAt.toISOString() })),
      };
    },
  );

  app.put(
    `${FLEET_PREFIX}/clusters/:clusterId/hosts/:hostname`,
    {
      config: { access: PROVIDER, audit: 'fleetCluster.linkHost' },
      schema: {
        tags,
        summary:
          "Links a host (Kubernetes node) name to the fleet cluster: metrics of fleet agents on that host carry the fleet cluster's cluster_id from now on.",
        params: hostParams,
        response: { 200: hostView.extend({ clusterId: z.string() }) },
      },
    },
    async (request) => {
      const { clusterId, hostname } = request.params;
      request.auditTarget = { type: 'fleetCluster', id: clusterId };
      const host = await clusters.linkHost(tenantOf(request).organizationId, clusterId, hostname);
      return { clusterId, hostname: host.hostname, linkedAt: host.linkedAt.toISOString() };
    },
  );

  app.delete(
    `${FLEET_PREFIX}/clusters/:clusterId/hosts/:hostname`,
    {
      config: { access: PROVIDER, audit: 'fleetCluster.unlinkHost' },
      schema: { tags, params: hostParams, response: { 200: successResponse } },
    },
    async (request) => {
      const { clusterId, hostname } = request.params;
      request.auditTarget = { type: 'fleetCluster', id: clusterId };
      await clusters.unlinkHost(tenantOf(request).organizationId, clusterId, hostname);
      return { success: true };
    },
  );

  app.get(
    `${FLEET_PREFIX}/clusters/:id/restarts`,
    {
      config: { access: PROVIDER },
      schema: {
        tags,
        summary:
          'Container restarts per step: sum of clamp_min(last_over_time(container_restarts_total[W]) - last_over_time(container_restarts_total[W] offset step), 0), W = max(step, 5m).',
        params: idParams,
        querystring: z.object({
          from: timeQuery.optional().describe('Default: an hour before to.'),
          to: timeQuery.optional().describe('Default: now.'),
          step: stepQuery
            .optional()
            .describe('Seconds, or a duration like 30s, 5m, 1h (default 60); at most 11,000 steps.'),
          by: z.enum(['workload']).optional().describe('Also per workload_kind and workload.'),
        }),
        response: {
          200: z.object({
            from: z.iso.datetime(),
            to: z.iso.datetime(),
            stepSeconds: z.number().int(),
            windowSeconds: z.number().int(),
            points: restartPoints,
            workloads: z
              .array(
                z.object({
                  workloadKind: z.string().nullable(),
                  workload: z.string().nullable(),
                  points: restartPoints,
                }),
              )
              .optional()
              .describe('With by=workload: the workloads with restarts in the range.'),
          }),
        },
      },
    },
    async (request) => {
      const { from, to, step, by } = request.query;
      const result = await clusters.restarts(tenantOf(request).organizationId, request.params.id, {
        from: from === undefined ? undefined : new Date(from),
        to: to === undefined ? undefined : new Date(to),
        stepSeconds: step,
        byWorkload: by === 'workload',
      });
      const points = (values: typeof result.points) =>
        values.map((p) => ({ time: p.time.toISOString(), restarts: p.restarts }));
      return {
        from: result.from.toISOString(),
        to: result.to.toISOString(),
        stepSeconds: result.stepSeconds,
        windowSeconds: result.windowSeconds,
        points: points(result.points),
        ...(result.workloads !== undefined && {
          workloads: result.workloads.map((w) => ({ ...w, points: points(w.points) })),
        }),
      };
    },
  );
  done();
};
