import { forwardingDecision } from '@noderings/domain';
import { collectPveMetrics, type PveReader } from '@noderings/pve-exporter';
import { createScrapeSender, type ScrapedSample } from '@noderings/remote-write';

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

/**
 * The sandbox's stand-in for Alloy (DESIGN §3.4): collects what the exporter serves, keeps what the
 * forwarding rules keep, labels it with `instance` and `agent_id`, and remote-writes it to the control
 * plane. Like Prometheus and Alloy, it sends a staleness marker for a series that disappeared since the
 * last scrape (the control plane reads a vanished non-NR sum as 0 from it).
 */
export function startMetricsForwardingLoop(options: MetricsForwardingLoopOptions): MetricsForwardingLoop {
  const sender = createScrapeSender({
    url: options.remoteWriteUrl,
    headers: { Authorization: `Bearer ${options.token}` },
  });
  let running: Promise<void> | undefined;

  const forward = async (): Promise<void> => {
    const families = await collectPveMetrics(options.pve);
    const at = Date.now();
    const samples: ScrapedSample[] = [];
    for (const family of families) {
      for (const sample of family.samples) {
        const labels: Record<string, string> = {
          ...sample.labels,
          __name__: family.name,
          job: 'pve',
          instance: options.instance,
          agent_id: options.agentId,
        };
        if (forwardingDecision(family.name, labels).forward) samples.push({ labels, value: sample.value });
      }
    }
    await sender.send(samples, at);
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
