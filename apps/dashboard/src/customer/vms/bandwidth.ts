import type { BandwidthUsage } from '../../api/api-resources.js';
import { formatGiB, formatTrafficGiB } from '../../format/bytes.js';

export interface BandwidthSummary {
  /** Egress of the current billing period in GiB (1024³ bytes): what the allowance counts. */
  readonly usedGb: number;
  readonly ingressGb: number;
  /** Undefined when the plan has no allowance (traffic is unlimited). */
  readonly allowanceGb: number | undefined;
  /** Used of the allowance, 0–100 (capped), for a meter; undefined when unlimited. */
  readonly percent: number | undefined;
  readonly overAllowance: boolean;
  readonly periodStart: string | undefined;
  readonly periodEnd: string | undefined;
  /** One sentence for people and screen readers. */
  readonly sentence: string;
}

/** The current period (the first the API lists) against the plan's allowance; 0 means unlimited. */
export function summarizeBandwidth(usage: BandwidthUsage): BandwidthSummary {
  const current = usage.periods[0];
  const usedGb = current?.egressGb ?? 0;
  const ingressGb = current?.ingressGb ?? 0;
  const base = { usedGb, ingressGb, periodStart: current?.start, periodEnd: current?.end };
  if (usage.allowanceGb <= 0)
    return {
      ...base,
      allowanceGb: undefined,
      percent: undefined,
      overAllowance: false,
      sentence: `${formatTrafficGiB(usedGb)} sent this period; traffic is unlimited.`,
    };
  const ratio = usedGb / usage.allowanceGb;
  return {
    ...base,
    allowanceGb: usage.allowanceGb,
    percent: Math.min(100, Math.round(ratio * 1000) / 10),
    overAllowance: ratio > 1,
    sentence:
      `${formatTrafficGiB(usedGb)} of ${formatGiB(usage.allowanceGb)} sent this period (${Math.round(ratio * 100)} %)` +
      (ratio > 1 ? ': over the allowance.' : '.'),
  };
}
