import { parseExposition } from '@noderings/prom';
import { createScrapeSender, type ScrapedSample } from '@noderings/remote-write';

import type { AlloyPipeline } from './alloy-config.js';
import { relabel } from './relabel-rules.js';
import { NoEndpointsError } from './service-address.js';

export interface ScrapeLoopOptions {
  readonly pipeline: AlloyPipeline;
  /** The target's `__address__` as `host:port` to connect to. */
  readonly resolve: (address: string) => Promise<string>;
  /** The remote write's bearer token, if the configuration has one. */
  readonly token: string | undefined;
  readonly log: (line: string) => void;
}

export interface ScrapeLoop {
  stop(): Promise<void>;
}

/** Alloy's default scrape timeout. */
const SCRAPE_TIMEOUT_MS = 10_000;
/** How soon a target whose Service has no endpoints yet is tried again (a fresh stack's start order). */
const NO_ENDPOINTS_RETRY_MS = 1000;

/**
 * What the stack's Alloy does, every scrape interval: scrape the one target, label every sample with the
 * target's labels (`exported_` before a label the target sets, as `honor_labels = false` does) and `job`,
 * add `up`, apply the relabel rules, and remote-write what is left with staleness markers.
 */
export function startScrapeLoop(options: ScrapeLoopOptions): ScrapeLoop {
  const { pipeline } = options;
  const sender = createScrapeSender({
    url: pipeline.remoteWriteUrl,
    ...(options.token !== undefined && { headers: { Authorization: `Bearer ${options.token}` } }),
  });
  const targetLabels = Object.fromEntries(
    Object.entries({ job: pipeline.component, ...pipeline.target }).filter(([k]) => !k.startsWith('__')),
  );
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  const scrapeOnce = async (): Promise<number> => {
    const at = Date.now();
    let samples: ScrapedSample[];
    try {
      samples = await scrape(await options.resolve(pipeline.target.__address__ ?? ''));
      samples.push({ labels: { __name__: 'up', ...targetLabels }, value: 1 });
    } catch (e: unknown) {
      if (e instanceof NoEndpointsError) {
        options.log(`scrape: ${e.message}; trying again`);
        return NO_ENDPOINTS_RETRY_MS;
      }
      options.log(`scrape failed: ${e instanceof Error ? e.message : String(e)}`);
      samples = [{ labels: { __name__: 'up', ...targetLabels }, value: 0 }];
    }
    const kept = samples.flatMap((s) => {
      const labels = relabel(pipeline.rules, s.labels);
      return labels === undefined ? [] : [{ labels, value: s.value }];
    });
    try {
      await sender.send(kept, at);
    } catch (e: unknown) {
      options.log(`remote write failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    return pipeline.scrapeIntervalMs;
  };

  const scrape = async (address: string): Promise<ScrapedSample[]> => {
    const url = new URL(`http://${address}${pipeline.metricsPath}`);
    for (const [name, values] of Object.entries(pipeline.params))
      for (const value of values) url.searchParams.append(name, value);
    const response = await fetch(url, {
      headers: { 'X-Prometheus-Scrape-Timeout-Seconds': String(SCRAPE_TIMEOUT_MS / 1000) },
      signal: AbortSignal.timeout(SCRAPE_TIMEOUT_MS),
    });
    const body = await response.text();
    if (!response.ok) throw new Error(`${url.pathname} answered ${String(response.status)}: ${body.trim()}`);
    return parseExposition(body).flatMap((family) =>
      family.samples.map((sample) => {
        const labels: Record<string, string> = {};
        for (const [k, v] of Object.entries(sample.labels))
          labels[k in targetLabels ? `exported_${k}` : k] = v;
        return { labels: { ...labels, ...targetLabels, __name__: sample.name }, value: sample.value };
      }),
    );
  };

  const tick = (): void => {
    running = scrapeOnce().then((delayMs) => {
      if (!stopped) timer = setTimeout(tick, delayMs);
    });
  };
  tick();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
