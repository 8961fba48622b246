import { forwardingDecision } from '@noderings/domain';
import { collectPveMetrics, type PveReader } from '@noderings/pve-exporter';
import { encodeWriteRequest, postRemoteWrite, STALE_NAN, type TimeSeries } from '@noderings/remote-write';

/** What the loop stands in for: the agent's Alloy scraping the exporter and forwarding to NodeRings. */
export interface MetricsForwardingLoopOptions {
  /** Reads Proxmox as the exporter's `/pve` does (a ProxmoxClient of the platform). */
  readonly pve: PveReader;
  readonly agentId: string;
  /** The platform endpoint's `host:port`: every series' `instance`. */
  readonly instance: string;
  /** The control plane's `…/api/v1/write`. */
  readonly remoteWriteUrl: string;
  /** The agent's metrics write credential. */
  readonly token: string;
  /** Default 30 s, as the agent stack scrapes. */
  readonly intervalMs?: number;
  /** Told about a scrape or a write that failed; the loop carries on. */
  readonly onError?: (error: Error) => void;
}

export interface MetricsForwardingLoop {
  /** One scrape and forward now (the loop also runs one at start). */
  forwardOnce(): Promise<void>;
  close(): Promise<void>;
}

const MAX_SAMPLES_PER_REQUEST = 2000;

/**
 * The sandbox's stand-in for Alloy (DESIGN §3.4): collects what the exporter serves, keeps what the
 * forwarding rules keep, labels it with `instance` and `agent_id`, and remote-writes it to the control
 * plane. Like Prometheus and Alloy, it sends a staleness marker for a series that disappeared since the
 * last scrape (the control plane reads a vanished non-NR sum as 0 from it).
 */
export function startMetricsForwardingLoop(options: MetricsForwardingLoopOptions): MetricsForwardingLoop {
  let previous = new Map<string, TimeSeries['labels']>();
  let running: Promise<void> | undefined;

  const forward = async (): Promise<void> => {
    const families = await collectPveMetrics(options.pve);
    const at = Date.now();
    const current = new Map<string, TimeSeries['labels']>();
    const series: TimeSeries[] = [];
    for (const family of families) {
      for (const sample of family.samples) {
        const labels: Record<string, string> = {
          ...sample.labels,
          __name__: family.name,
          job: 'pve',
          instance: options.instance,
          agent_id: options.agentId,
        };
        if (!forwardingDecision(family.name, labels).forward) continue;
        const sorted = Object.entries(labels)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([name, value]) => ({ name, value }));
        const key = sorted.map((l) => `${l.name}=${l.value}`).join('\u0000');
        current.set(key, sorted);
        series.push({ labels: sorted, samples: [{ value: sample.value, timestampMs: at }] });
      }
    }
    for (const [key, labels] of previous)
      if (!current.has(key)) series.push({ labels, samples: [{ value: STALE_NAN, timestampMs: at }] });
    previous = current;
    for (let i = 0; i < series.length; i += MAX_SAMPLES_PER_REQUEST) {
      const response = await postRemoteWrite(
        options.remoteWriteUrl,
        encodeWriteRequest({ timeseries: series.slice(i, i + MAX_SAMPLES_PER_REQUEST) }),
        { Authorization: `Bearer ${options.token}` },
      );
      if (!response.ok)
        throw new Error(
          `the control plane refused metrics (${String(response.status)}): ${response.message}`,
        );
    }
  };

  const forwardOnce = (): Promise<void> => {
    // One at a time: a slow scrape is not overtaken by the next.
    running ??= forward().finally(() => (running = undefined));
    return running;
  };

  const tick = () => {
    forwardOnce().catch((e: unknown) => options.onError?.(e instanceof Error ? e : new Error(String(e))));
  };
  const timer = setInterval(tick, options.intervalMs ?? 30_000);
  timer.unref();
  tick();
  return {
    forwardOnce,
    close: async () => {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
