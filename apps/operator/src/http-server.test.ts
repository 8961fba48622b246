import { afterEach, describe, expect, it } from 'vitest';

import { Counter, Registry } from 'prom-client';

import { startHttpServer } from './http-server.js';
import type { OperatorHttpServer } from './http-server.js';

let server: OperatorHttpServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('startHttpServer', () => {
  it('serves /healthz always, /readyz as ready() says, and the registry on /metrics', async () => {
    const registry = new Registry();
    new Counter({ name: 'test_things_total', help: 'Things.', registers: [registry] }).inc(3);
    let ready = false;
    server = await startHttpServer({ host: '127.0.0.1', port: 0 }, registry, () => ready);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
    ready = true;
    expect((await fetch(`${server.url}/readyz?verbose`)).status).toBe(200);

    const metrics = await fetch(`${server.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(await metrics.text()).toContain('test_things_total 3');
  });

  it('answers 404 for other paths and 405 for other methods', async () => {
    server = await startHttpServer({ host: '127.0.0.1', port: 0 }, new Registry(), () => true);
    expect((await fetch(`${server.url}/nothing`)).status).toBe(404);
    expect((await fetch(`${server.url}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('fails to start on an address in use', async () => {
    server = await startHttpServer({ host: '127.0.0.1', port: 0 }, new Registry(), () => true);
    const port = Number(new URL(server.url).port);
    await expect(startHttpServer({ host: '127.0.0.1', port }, new Registry(), () => true)).rejects.toThrow(
      /EADDRINUSE/,
    );
  });
});
