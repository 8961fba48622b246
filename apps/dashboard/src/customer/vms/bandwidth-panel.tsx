import { useQuery } from '@tanstack/react-query';

import { apiPath } from '../../api/api-client.js';
import type { BandwidthUsage } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { formatTrafficGiB } from '../../format/bytes.js';
import { formatDateTime } from '../../format/dates.js';
import { Section } from '../../ui/page.js';
import { QueryState } from '../../ui/query-state.js';
import { summarizeBandwidth } from './bandwidth.js';

/** Outbound traffic of the current billing period against the plan's allowance. */
export function BandwidthPanel({ vmId }: { readonly vmId: string }) {
  const api = useApi();
  const usage = useQuery({
    queryKey: ['vms', vmId, 'bandwidth'],
    queryFn: () => api.get<BandwidthUsage>(apiPath`/v1/virtual-machines/${vmId}/bandwidth-usage`),
    refetchInterval: 60_000,
  });
  return (
    <Section title="Bandwidth" id="bandwidth">
      <QueryState query={usage} loadingLabel="Loading traffic…">
        {(data) => {
          const summary = summarizeBandwidth(data);
          return (
            <>
              <p>{summary.sentence}</p>
              {summary.allowanceGb !== undefined && (
                <meter
                  className="bandwidth-meter"
                  min={0}
                  max={summary.allowanceGb}
                  low={summary.allowanceGb * 0.8}
                  high={summary.allowanceGb * 0.95}
                  optimum={0}
                  value={Math.min(summary.usedGb, summary.allowanceGb)}
                  aria-label="Traffic used of the allowance"
                >
                  {summary.percent} %
                </meter>
              )}
              <p className="muted">
                Received: {formatTrafficGiB(summary.ingressGb)} (not counted).
                {summary.periodStart !== undefined &&
                  ` Period ${formatDateTime(summary.periodStart)} to ${formatDateTime(summary.periodEnd)}.`}
              </p>
            </>
          );
        }}
      </QueryState>
    </Section>
  );
}
