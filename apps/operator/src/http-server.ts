import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Registry } from 'prom-client';

export interface OperatorHttpServer {
  /** `http://host:port`. */
  url: string;
  close(): Promise<void>;
}

/** `/metrics` (Prometheus text), `/healthz` (the process runs), `/readyz` (as `ready()` says). */
export async function startHttpServer(
  listen: { host: string; port: number },
  registry: Registry,
  ready: () => boolean,
): Promise<OperatorHttpServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const reply = (status: number, body: string, type = 'text/plain; charset=utf-8'): void => {
      res.writeHead(status, { 'content-type': type }).end(body);
    };
    if (req.method !== 'GET') {
      reply(405, 'method not allowed\n');
    } else if (path === '/healthz') {
      reply(200, 'ok\n');
    } else if (path === '/readyz') {
      if (ready()) reply(200, 'ok\n');
      else reply(503, 'not ready\n');
    } else if (path === '/metrics') {
      registry.metrics().then(
        (text) => {
          reply(200, text, registry.contentType);
        },
        (e: unknown) => {
          reply(500, `${e instanceof Error ? e.message : String(e)}\n`);
        },
      );
    } else {
      reply(404, 'not found\n');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
