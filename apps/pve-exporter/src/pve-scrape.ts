import { performance } from 'node:perf_hooks';

import { createProxmoxClient } from '@noderings/proxmox';

import { failureReason, httpStatusOf } from './error-mapping.js';
import type { ExporterConfig, ModuleConfig } from './exporter-config.js';
import type { MetricFamily } from '@noderings/prom';
import { collectPveMetrics } from './pve-collector.js';
import type { CollectOptions } from './pve-collector.js';
import { scrapeDeadlineMs, withDeadline } from './scrape-deadline.js';
import { targetBaseUrl } from './scrape-target.js';
import type { SelfMetrics } from './self-metrics.js';
import { TEXT_EXPOSITION_CONTENT_TYPE, renderTextExposition } from '@noderings/prom';

/** An HTTP answer, before it is written. */
export interface HttpReply {
  status: number;
  body: string;
  contentType: string;
}

export interface PveScrapeDeps {
  config: ExporterConfig;
  metrics: Pick<SelfMetrics, 'collected' | 'failed'>;
  /** The deadline without Prometheus' timeout header. */
  defaultTimeoutMs: number;
  log: (line: string) => void;
  /** Aborts every scrape in flight (the exporter is closing). */
  closing: AbortSignal;
}

const DEFAULT_MODULE = 'default';
/** Upstream's default target: an exporter running on the Proxmox node itself. */
const DEFAULT_TARGET = 'localhost';

/**
 * One `/pve` request: `module=` picks the credentials, `target=` the Proxmox API, `cluster=` and `node=`
 * the families; the collection runs against its deadline with a Proxmox client of its own, as upstream
 * makes one per scrape.
 */
export function pveScrape(deps: PveScrapeDeps) {
  return async (query: URLSearchParams, timeoutHeader: string | undefined): Promise<HttpReply> => {
    const moduleName = query.get('module') ?? DEFAULT_MODULE;
    const module = deps.config.modules.get(moduleName);
    if (module === undefined) return textReply(400, `Module '${moduleName}' not found in config\n`);
    const target = query.get('target') ?? DEFAULT_TARGET;
    const started = performance.now();
    try {
      const baseUrl = targetBaseUrl(target);
      const options = { cluster: isOn(query.get('cluster')), node: isOn(query.get('node')) };
      const families = await withDeadline(
        scrapeDeadlineMs(timeoutHeader, deps.defaultTimeoutMs),
        (signal) => collectFrom(baseUrl, module, { ...options, signal }),
        deps.closing,
      );
      deps.metrics.collected(moduleName, (performance.now() - started) / 1000);
      return { status: 200, body: renderTextExposition(families), contentType: TEXT_EXPOSITION_CONTENT_TYPE };
    } catch (e: unknown) {
      deps.metrics.failed(moduleName);
      const reason = failureReason(e, module.secrets);
      deps.log(
        `scrape of target ${JSON.stringify(target)} with module ${JSON.stringify(moduleName)} failed: ${reason}`,
      );
      return textReply(httpStatusOf(e), `${reason}\n`);
    }
  };
}

async function collectFrom(
  baseUrl: string,
  module: ModuleConfig,
  options: CollectOptions,
): Promise<MetricFamily[]> {
  const client = createProxmoxClient({ baseUrl, ...module.client });
  try {
    return await collectPveMetrics(client, options);
  } finally {
    await client.close();
  }
}

/** Upstream's reading of `cluster=` and `node=`: on unless `0`, `false` or empty. */
function isOn(value: string | null): boolean {
  return value === null || !['0', 'false', ''].includes(value.toLowerCase());
}

export function textReply(status: number, body: string): HttpReply {
  return { status, body, contentType: 'text/plain; charset=utf-8' };
}
