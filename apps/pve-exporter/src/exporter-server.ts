import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { failureReason } from './error-mapping.js';
import type { ExporterConfig } from './exporter-config.js';
import { ExporterError } from './exporter-error.js';
import { parseListenAddress } from './listen-address.js';
import { pveScrape, textReply } from './pve-scrape.js';
import type { HttpReply } from './pve-scrape.js';
import { SelfMetrics } from './self-metrics.js';

export interface PveExporterOptions {
  config: ExporterConfig;
  /** `HOST:PORT`, or `:PORT` for every interface; port 0 picks a free one. Default `127.0.0.1:0`. */
  listen?: string;
  /** A scrape's deadline when Prometheus sends no `X-Prometheus-Scrape-Timeout-Seconds`. Default 10 s. */
  defaultTimeoutMs?: number;
  /** Receives one line per failed scrape. Default: standard error. */
  log?: (line: string) => void;
}

export interface PveExporter {
  /** `http://host:port`: scrape `${url}/pve?target=…`, read its own metrics at `${url}/metrics`. */
  url: string;
  /** Abandons the scrapes in flight (they answer 503), stops listening and closes every connection. */
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 10_000;

const INDEX_PAGE = `<html>
<head><title>Proxmox VE Exporter</title></head>
<body>
<h1>Proxmox VE Exporter</h1>
<p>Scrape <code>/pve?target=HOST:8006&amp;cluster=1&amp;node=1&amp;module=default</code>; own metrics at <code>/metrics</code>.</p>
</body>
</html>
`;

/**
 * Serves prometheus-pve-exporter's HTTP interface: `/pve` collects from a Proxmox target, `/metrics`
 * the exporter's own metrics, `/` a short page.
 */
export async function startPveExporter(options: PveExporterOptions): Promise<PveExporter> {
  const listen = parseListenAddress(options.listen ?? '127.0.0.1:0');
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(defaultTimeoutMs) || defaultTimeoutMs <= 0) {
    throw new RangeError(`defaultTimeoutMs must be a positive number, got ${defaultTimeoutMs}`);
  }
  const metrics = new SelfMetrics(options.config.modules.keys());
  const closing = new AbortController();
  const scrape = pveScrape({
    config: options.config,
    metrics,
    defaultTimeoutMs,
    closing: closing.signal,
    log:
      options.log ??
      ((line: string): void => {
        process.stderr.write(`${line}\n`);
      }),
  });

  const answer = async (req: IncomingMessage): Promise<HttpReply> => {
    const url = new URL(req.url ?? '/', 'http://exporter');
    if (req.method !== 'GET') return textReply(405, 'only GET is served\n');
    switch (url.pathname) {
      case '/pve':
        return scrape(url.searchParams, firstValue(req.headers['x-prometheus-scrape-timeout-seconds']));
      case '/metrics':
        return {
          status: 200,
          body: await metrics.registry.metrics(),
          contentType: metrics.registry.contentType,
        };
      case '/':
        return { status: 200, body: INDEX_PAGE, contentType: 'text/html; charset=utf-8' };
      default:
        return textReply(404, 'not found: try /pve or /metrics\n');
    }
  };

  const inFlight = new Set<Promise<void>>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const replying = answer(req)
      .catch((e: unknown) => textReply(500, `${failureReason(e, [])}\n`))
      .then((reply) => {
        res.writeHead(reply.status, { 'content-type': reply.contentType }).end(reply.body);
      })
      .catch(() => {
        // The client went away before the answer: nothing left to tell it.
        res.destroy();
      })
      .finally(() => {
        inFlight.delete(replying);
      });
    inFlight.add(replying);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: async () => {
      closing.abort(new ExporterError('SHUTTING_DOWN', 'the exporter is shutting down'));
      await Promise.allSettled(inFlight);
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      });
    },
  };
}

function firstValue(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header[0] : header;
}
