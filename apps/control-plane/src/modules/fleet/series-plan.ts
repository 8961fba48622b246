import { createHash } from 'node:crypto';

import { decodeSampleValue, type WireSample } from '@noderings/fleet';

/**
 * How a metrics message becomes series and samples. A series is the agent's metric name and labels; the
 * backend owns the `cluster_id` label (the agent's host linked to a Kubernetes cluster at ingest time), so
 * whatever the agent put there is replaced. Pure, so the identity rules are tested without a database.
 */

const CLUSTER_LABEL = 'cluster_id';

interface PlannedSeries {
  /** Hex SHA-256 of agent, name and sorted labels: the series' identity. */
  readonly keyHash: string;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly clusterId: string | null;
}

interface PlannedSample {
  readonly keyHash: string;
  readonly timestampMs: number;
  readonly value: number;
}

export interface SeriesPlan {
  readonly series: PlannedSeries[];
  /** One per series and timestamp (the message's last one wins). */
  readonly samples: PlannedSample[];
}

export function seriesKey(agentId: string, name: string, labels: Readonly<Record<string, string>>): string {
  const sorted = Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256')
    .update(JSON.stringify([agentId, name, sorted]))
    .digest('hex');
}

export function planSeries(
  agentId: string,
  samples: readonly WireSample[],
  clusterId: string | undefined,
): SeriesPlan {
  const series = new Map<string, PlannedSeries>();
  const planned = new Map<string, PlannedSample>();
  for (const sample of samples) {
    const labels: Record<string, string> = {};
    for (const [name, value] of Object.entries(sample.l)) {
      if (name !== CLUSTER_LABEL && name !== '__name__') labels[name] = value;
    }
    if (clusterId !== undefined) labels[CLUSTER_LABEL] = clusterId;
    const keyHash = seriesKey(agentId, sample.n, labels);
    if (!series.has(keyHash))
      series.set(keyHash, { keyHash, name: sample.n, labels, clusterId: clusterId ?? null });
    planned.set(`${keyHash}/${sample.t}`, {
      keyHash,
      timestampMs: sample.t,
      value: decodeSampleValue(sample.v),
    });
  }
  return { series: [...series.values()], samples: [...planned.values()] };
}
