import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { apiPath } from '../../api/api-client.js';
import type { MetricSeriesName, MetricsAnswer } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { SelectField } from '../../ui/form-field.js';
import { Section } from '../../ui/page.js';
import { QueryState } from '../../ui/query-state.js';
import { CHART_RANGES, chartRange, rangeQuery, shapeMetrics, type ChartRange } from './chart-data.js';
import { MetricsChart } from './metrics-chart.js';

const CHARTS: readonly { series: MetricSeriesName; title: string }[] = [
  { series: 'CHART_SERIES_CPU', title: 'CPU usage' },
  { series: 'CHART_SERIES_MEMORY', title: 'Memory usage' },
  { series: 'CHART_SERIES_NETWORK', title: 'Network traffic' },
];

/** New points arrive once a minute (the metrics rollup); reading more often shows nothing new. */
const METRICS_REFRESH_MS = 60_000;

export function VmCharts({ vmId }: { readonly vmId: string }) {
  const [range, setRange] = useState<ChartRange>('1h');
  return (
    <Section title="Monitoring" id="monitoring">
      <div className="form-inline">
        <SelectField
          label="Time range"
          value={range}
          options={CHART_RANGES.map((r) => ({ value: r.value, label: r.label }))}
          onChange={(e) => {
            setRange(CHART_RANGES.find((r) => r.value === e.target.value)?.value ?? '1h');
          }}
        />
      </div>
      <div className="charts">
        {CHARTS.map((chart) => (
          <SeriesChart
            key={chart.series}
            vmId={vmId}
            series={chart.series}
            title={chart.title}
            range={range}
          />
        ))}
      </div>
    </Section>
  );
}

function SeriesChart({
  vmId,
  series,
  title,
  range,
}: {
  readonly vmId: string;
  readonly series: MetricSeriesName;
  readonly title: string;
  readonly range: ChartRange;
}) {
  const api = useApi();
  const metrics = useQuery({
    queryKey: ['vms', vmId, 'metrics', series, range],
    queryFn: () =>
      api.get<MetricsAnswer>(apiPath`/v1/virtual-machines/${vmId}/metrics`, {
        series,
        ...rangeQuery(range, Date.now()),
      }),
    refetchInterval: METRICS_REFRESH_MS,
    select: shapeMetrics,
  });
  return (
    <QueryState query={metrics} loadingLabel={`Loading ${title.toLowerCase()}…`}>
      {(data) => <MetricsChart title={title} rangeLabel={chartRange(range).label} data={data} />}
    </QueryState>
  );
}
