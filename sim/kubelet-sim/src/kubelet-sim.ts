import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { gzip, constants as zlib } from 'node:zlib';
import { renderCadvisorMetrics } from './cadvisor-metrics.js';
import { FaultInjector, isKubeletPath, type KubeletFault, type KubeletPath } from './fault-injector.js';
import {
  forbiddenMessage,
  isAllowed,
  KubeletAuth,
  subresourcesFor,
  verbOf,
  type KubeletSimToken,
} from './kubelet-auth.js';
import { renderPodList } from './pod-list.js';
import type { RecordedDocuments } from './recorded-documents.js';
import { generateServingCertificate } from './serving-certificate.js';
import { createSimulatedNode, type SimulatedNode } from './simulated-node.js';
import { renderStatsSummary } from './stats-summary.js';

export interface KubeletSimOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Default `sim-node-1`. */
  nodeName?: string;
  /** Default 110, the kubelet's default `maxPods`. */
  pods?: number;
  seed?: number;
  /** Default one token, `kubelet-sim-token`, allowed stats, metrics and pods. */
  tokens?: readonly KubeletSimToken[];
  /** Serve these documents as they are instead of the simulated node's. */
  recorded?: RecordedDocuments;
  /** The node's clock in ms; default `Date.now`. */
  now?: () => number;
}

export interface KubeletSim {
  /** `https://127.0.0.1:PORT` */
  readonly url: string;
  /** The kubelet's self-signed serving certificate with its CA, to trust as a CA file. */
  readonly caPem: string;
  readonly node: SimulatedNode;
  /** Replaces every token at once, as a rotation does. */
  setTokens(tokens: readonly KubeletSimToken[]): void;
  /** Makes `path` answer `{ status, body? }`, never (`{ hang: true }`) or late (`{ delayMs }`); `undefined` clears it. */
  setFault(path: KubeletPath, fault: KubeletFault | undefined): void;
  /** Requests `path` has received, whatever was answered. */
  requestCount(path: KubeletPath): number;
  /** Stops serving and ends every open request, hanging ones included. */
  close(): Promise<void>;
}

const DEFAULT_TOKENS: readonly KubeletSimToken[] = [{ token: 'kubelet-sim-token' }];
const TEXT = 'text/plain; charset=utf-8';
const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';
const JSON_TYPE = 'application/json';
const gzipAsync = promisify(gzip);

interface Route {
  contentType: string;
  render(query: URLSearchParams): string;
  /** Gzipped for clients that accept it, as the kubelet's Prometheus handler does. */
  compressible: boolean;
}

export async function startKubeletSim(options: KubeletSimOptions = {}): Promise<KubeletSim> {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`port must be 0–65535, got ${port}`);
  const node = createSimulatedNode({
    ...(options.nodeName !== undefined ? { nodeName: options.nodeName } : {}),
    ...(options.pods !== undefined ? { pods: options.pods } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
  });
  const auth = new KubeletAuth(options.tokens ?? DEFAULT_TOKENS);
  const faults = new FaultInjector();
  const certificate = await generateServingCertificate(node.nodeName, node.now());
  const recorded = options.recorded;
  const routes = new Map<string, Route>([
    [
      '/stats/summary',
      {
        contentType: JSON_TYPE,
        compressible: false,
        render: (q) =>
          recorded?.summary ??
          renderStatsSummary(node, { onlyCpuAndMemory: q.get('only_cpu_and_memory') === 'true' }),
      },
    ],
    [
      '/metrics/cadvisor',
      {
        contentType: PROMETHEUS_TEXT,
        compressible: true,
        render: () => recorded?.cadvisor ?? renderCadvisorMetrics(node),
      },
    ],
    [
      '/pods',
      { contentType: JSON_TYPE, compressible: false, render: () => recorded?.pods ?? renderPodList(node) },
    ],
    ['/healthz', { contentType: TEXT, compressible: false, render: () => 'ok' }],
  ]);
  const closing = new AbortController();
  const open = new Set<ServerResponse>();

  /** Plays the fault set on `path`; false when the request has been answered (or dropped) by it. */
  async function playFault(path: KubeletPath): Promise<boolean> {
    for (;;) {
      const fault = faults.get(path);
      if (closing.signal.aborted) return false;
      if (!fault) return true;
      if ('delayMs' in fault) {
        await sleep(fault.delayMs, undefined, { signal: closing.signal }).catch(() => undefined);
        return !closing.signal.aborted;
      }
      if ('status' in fault) return false;
      await faults.changed(path, closing.signal);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://kubelet.invalid');
    const path = url.pathname;
    if (isKubeletPath(path)) {
      faults.count(path);
      if (!(await playFault(path))) {
        const fault = faults.get(path);
        if (fault && 'status' in fault && !closing.signal.aborted) {
          send(req, res, {
            status: fault.status,
            contentType: TEXT,
            body: fault.body ?? STATUS_CODES[fault.status] ?? '',
          });
        }
        return;
      }
    }
    const answer = await respond(req, path, url.searchParams);
    send(req, res, answer);
  }

  /** What the kubelet answers once faults have played: authentication, routing, authorization, the document. */
  async function respond(req: IncomingMessage, path: string, query: URLSearchParams): Promise<Answer> {
    const identity = auth.authenticate(req.headers.authorization);
    if (!identity) return { status: 401, contentType: TEXT, body: 'Unauthorized' };
    const route = routes.get(path);
    if (!route) return { status: 404, contentType: TEXT, body: '404 page not found\n' };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return { status: 405, contentType: TEXT, body: '405: Method Not Allowed' };
    }
    // Any client the kubelet authenticates may ask whether it is up; the other paths need RBAC.
    const wanted = subresourcesFor(path);
    if (path !== '/healthz' && !isAllowed(identity, wanted)) {
      return { status: 403, contentType: TEXT, body: forbiddenMessage(identity, verbOf(req.method), wanted) };
    }
    const body = route.render(query);
    if (route.compressible && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
      const zipped = await gzipAsync(body, { level: zlib.Z_BEST_SPEED });
      return {
        status: 200,
        contentType: route.contentType,
        body: zipped,
        headers: { 'Content-Encoding': 'gzip' },
      };
    }
    return { status: 200, contentType: route.contentType, body };
  }

  const server: Server = createServer({ key: certificate.keyPem, cert: certificate.chainPem }, (req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': TEXT });
      res.end();
    });
  });
  server.on('clientError', (_e, socket) => {
    socket.destroy();
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closed: Promise<void> | undefined;
  return {
    url: `https://${shownHost}:${address.port}`,
    caPem: certificate.chainPem,
    node,
    setTokens: (tokens) => {
      auth.replace(tokens);
    },
    setFault: (path, fault) => {
      faults.set(path, fault);
    },
    requestCount: (path) => faults.requestCount(path),
    close: () => {
      closed ??= (async () => {
        closing.abort();
        for (const res of open) res.destroy();
        server.closeAllConnections();
        await new Promise<void>((resolve) =>
          server.close(() => {
            resolve();
          }),
        );
      })();
      return closed;
    },
  };
}

interface Answer {
  status: number;
  contentType: string;
  body: string | Buffer;
  headers?: Record<string, string>;
}

function send(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  if (res.destroyed) return;
  const bytes = typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body;
  res.writeHead(answer.status, {
    'Content-Type': answer.contentType,
    'Content-Length': bytes.length,
    ...answer.headers,
  });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}
