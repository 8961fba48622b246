import { createServer } from 'node:http';

import { AgentError, messageOf } from './agent-error.js';
import { parseListenAddress } from './listen-address.js';

export interface HealthServer {
  /** `http://host:port` */
  readonly url: string;
  close(): Promise<void>;
}

/** What `/readyz` reports: Ready while the agent runs, including while it retries a 409 enrollment. */
export interface HealthState {
  ready(): boolean;
  /** A short word for humans: `enrolling`, `running`, `stopping`, … */
  phase(): string;
}

/** `/healthz` (the process answers) and `/readyz` (the agent runs) on `listen` (`HOST:PORT`). */
export async function startHealthServer(listen: string, state: HealthState): Promise<HealthServer> {
  const address = parseListenAddress(listen);
  if (address === undefined)
    throw new AgentError('USAGE', `health listen address: expected HOST:PORT, got '${listen}'`);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const answer = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(`${JSON.stringify(body)}\n`);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') answer(405, { error: 'method not allowed' });
    else if (path === '/healthz') answer(200, { status: 'ok', phase: state.phase() });
    else if (path === '/readyz') {
      const ready = state.ready();
      answer(ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', phase: state.phase() });
    } else answer(404, { error: 'not found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e) => {
      reject(
        new AgentError(
          'HEALTH_LISTEN_FAILED',
          `the health server cannot listen on ${listen}: ${messageOf(e)}`,
          { cause: e },
        ),
      );
    });
    server.listen(address.port, address.host, () => {
      resolve();
    });
  });
  const bound = server.address();
  const port = typeof bound === 'object' && bound !== null ? bound.port : address.port;
  const host = address.host ?? '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
