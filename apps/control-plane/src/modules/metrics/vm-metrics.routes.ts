import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams } from '../../http/id-params.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import { wireEnum } from '../../http/wire-enum.js';
import type { ChartSeries, VmMetricsService } from './vm-metrics.service.js';

const CUSTOMER: RouteAccess = { kind: 'tenant' };
const tags = ['VirtualMachineService'];
/** Traffic is counted in GiB (1024³ bytes), the unit of every size in the API (ADR 0023). */
const GIB = 1024 ** 3;

const chartSeries = wireEnum({
  cpu: 'CHART_SERIES_CPU',
  memory: 'CHART_SERIES_MEMORY',
  network: 'CHART_SERIES_NETWORK',
  disk: 'CHART_SERIES_DISK',
} satisfies Record<ChartSeries, string>);

const rate = z.number().optional();
const chartView = z
  .object({
    series: chartSeries.schema,
    resolutionSeconds: z
      .number()
      .int()
      .describe("Seconds per point: the step asked for, or the rollups' own."),
    from: z.iso.datetime(),
    to: z.iso.datetime(),
    points: z.array(
      z.object({
        time: z.iso.datetime().describe('Start of the bucket.'),
        cpuUsageRatio: rate.describe('Average share of the vCPUs in use, 0–1.'),
        cpuUsageRatioMax: rate,
        memoryUsedBytes: rate,
        memoryUsedBytesMax: rate,
        networkReceiveBytesPerSecond: rate,
        networkTransmitBytesPerSecond: rate,
        diskReadBytesPerSecond: rate,
        diskWriteBytesPerSecond: rate,
      }),
    ),
  })
  .meta({ id: 'VirtualMachineMetrics' });

const periodView = z.object({
  start: z.iso.datetime(),
  end: z.iso.datetime(),
  egressBytes: z.number().int(),
  ingressBytes: z.number().int(),
  egressGb: z.number().describe('egressBytes in GiB (1024³ bytes).'),
  ingressGb: z.number().describe('ingressBytes in GiB.'),
});

const bandwidthView = z
  .object({
    period: z.string().describe("The plan's bandwidthPeriod: the allowance applies to each."),
    allowanceGb: z.number().int().describe('Egress included per period, in GiB; 0 is unlimited.'),
    periods: z.array(periodView).describe('The current period first.'),
  })
  .meta({ id: 'VirtualMachineBandwidthUsage' });

/** A customer's VM usage charts and traffic, from the metrics its provider's agent forwards. */
export const vmMetricsRoutes: FastifyPluginCallbackZod<{ metrics: VmMetricsService }> = (
  app,
  { metrics },
  done,
) => {
  app.get(
    '/v1/virtual-machines/:id/metrics',
    {
      config: { access: CUSTOMER },
      schema: {
        tags,
        summary:
          'Usage chart points: 1-minute points for the last 48 hours, 1-hour points for 90 days, merged into `step` seconds.',
        params: idParams,
        querystring: z.object({
          series: chartSeries.schema.default('CHART_SERIES_CPU'),
          from: z.iso.datetime({ offset: true }).optional().describe('Default: an hour before to.'),
          to: z.iso.datetime({ offset: true }).optional().describe('Default: now.'),
          step: z.coerce
            .number()
            .int()
            .min(60)
            .max(86_400)
            .optional()
            .describe(
              'Seconds per point, a multiple of 60 within the last 48 hours and of 3600 before: points are merged into steps (a chart of 7 days asks 3600). Default: 60, or 3600 for a range that starts earlier.',
            ),
        }),
        response: { 200: chartView },
      },
    },
    async (request) => {
      const { series, from, to, step } = request.query;
      const chart = await metrics.chart(tenantOf(request).organizationId, request.params.id, {
        series: chartSeries.fromWire(series),
        from: from === undefined ? undefined : new Date(from),
        to: to === undefined ? undefined : new Date(to),
        stepSeconds: step,
      });
      return {
        ...chart,
        series: chartSeries.toWire(chart.series),
        from: chart.from.toISOString(),
        to: chart.to.toISOString(),
        points: chart.points.map((p) => ({ ...p, time: p.time.toISOString() })),
      };
    },
  );

  app.get(
    '/v1/virtual-machines/:id/bandwidth-usage',
    {
      config: { access: CUSTOMER },
      schema: {
        tags,
        summary: "Traffic per billing period of the VM's plan (egress is transmitted, ingress received).",
        params: idParams,
        querystring: z.object({ periods: z.coerce.number().int().min(1).max(24).default(1) }),
        response: { 200: bandwidthView },
      },
    },
    async (request) => {
      const usage = await metrics.bandwidth(
        tenantOf(request).organizationId,
        request.params.id,
        request.query.periods,
      );
      return {
        period: usage.period,
        allowanceGb: usage.allowanceGb,
        periods: usage.periods.map((p) => ({
          start: p.start.toISOString(),
          end: p.end.toISOString(),
          egressBytes: p.egressBytes,
          ingressBytes: p.ingressBytes,
          egressGb: p.egressBytes / GIB,
          ingressGb: p.ingressBytes / GIB,
        })),
      };
    },
  );
  done();
};
