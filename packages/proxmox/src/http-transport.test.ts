import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, test } from 'vitest';

import {
  MalformedResponseError,
  PveNotFoundError,
  ProxmoxError,
  PveUnauthorizedError,
  UnreachableError,
} from './errors.js';
import { HttpTransport } from './http-transport.js';
import type { Authenticator, TransportOptions } from './http-transport.js';
import { TicketSession } from './ticket-session.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (request: Seen, response: ServerResponse) => void;

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function listen(handler: Handler, port = 0): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      };
      seen.push(entry);
      handler(entry, response);
    });
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

function json(response: ServerResponse, status: number, body: unknown, statusText?: string): void {
  response.writeHead(status, statusText, { 'content-type': 'application/json;charset=UTF-8' });
  response.end(JSON.stringify(body));
}

const TOKEN_AUTH: Authenticator = {
  headers: () => Promise.resolve({ authorization: 'PVEAPIToken=root@pam!t=s' }),
};

function transport(url: string, overrides: Partial<TransportOptions> = {}): HttpTransport {
  const http = new HttpTransport({
    baseUrl: new URL(url),
    auth: TOKEN_AUTH,
    tls: { kind: 'system' },
    timeoutMs: 2_000,
    connectTimeoutMs: 1_000,
    retry: { count: 2, baseMs: 5, maxMs: 10 },
    ...overrides,
  });
  cleanups.push(() => http.close());
  return http;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

describe('HttpTransport: requests', () => {
  test('GET and DELETE put parameters in the query, POST and PUT in a form body', async () => {
    const sim = await listen((_request, response) => {
      json(response, 200, { data: null });
    });
    const http = transport(sim.url);
    await http.call({ method: 'GET', path: '/cluster/resources', params: { type: 'vm' } });
    await http.call({ method: 'DELETE', path: '/nodes/pve1/qemu/100', params: { purge: true } });
    await http.call({
      method: 'POST',
      path: '/nodes/pve1/qemu/100/config',
      params: { cores: 2, onboot: false },
    });
    await http.call({ method: 'PUT', path: '/nodes/pve1/qemu/100/config', params: { name: 'a b' } });
    expect(sim.seen.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: 'GET', url: '/api2/json/cluster/resources?type=vm', body: '' },
      { method: 'DELETE', url: '/api2/json/nodes/pve1/qemu/100?purge=1', body: '' },
      { method: 'POST', url: '/api2/json/nodes/pve1/qemu/100/config', body: 'cores=2&onboot=0' },
      { method: 'PUT', url: '/api2/json/nodes/pve1/qemu/100/config', body: 'name=a%20b' },
    ]);
    expect(sim.seen[2]?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sim.seen[0]?.headers.authorization).toBe('PVEAPIToken=root@pam!t=s');
  });

  test('keeps a path prefix of the base URL', async () => {
    const sim = await listen((_request, response) => {
      json(response, 200, { data: { version: '8.3.0' } });
    });
    await transport(`${sim.url}/pve`).call({ method: 'GET', path: '/version' });
    expect(sim.seen[0]?.url).toBe('/pve/api2/json/version');
  });

  test('returns data and total of the envelope', async () => {
    const sim = await listen((_request, response) => {
      json(response, 200, { data: [{ n: 1, t: 'x' }], total: 40 });
    });
    expect(await transport(sim.url).call({ method: 'GET', path: '/x' })).toEqual({
      data: [{ n: 1, t: 'x' }],
      total: 40,
    });
  });

  test.each([
    ['an HTML page', 'text/html', '<html><body>Login</body></html>'],
    ['JSON without data', 'application/json', '{"result":1}'],
    ['a JSON list', 'application/json', '[]'],
    ['an empty body', 'application/json', ''],
  ])('a 200 with %s is MalformedResponseError', async (_what, type, body) => {
    const sim = await listen((_request, response) => {
      response.writeHead(200, { 'content-type': type });
      response.end(body);
    });
    const error = await transport(sim.url)
      .call({ method: 'GET', path: '/version' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect((error as MalformedResponseError).status).toBe(200);
  });
});

describe('HttpTransport: retries', () => {
  test('a GET is retried after an unclassified 5xx, a POST is not', async () => {
    const sim = await listen((_request, response) => {
      json(response, 500, { data: null, message: 'got timeout\n' }, 'got timeout');
    });
    const http = transport(sim.url);
    await expect(http.call({ method: 'GET', path: '/nodes' })).rejects.toBeInstanceOf(ProxmoxError);
    expect(sim.seen.filter((r) => r.method === 'GET')).toHaveLength(3);
    await expect(
      http.call({ method: 'POST', path: '/nodes/pve1/qemu/100/status/start' }),
    ).rejects.toBeInstanceOf(ProxmoxError);
    expect(sim.seen.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  test('a GET that recovers after one failure succeeds', async () => {
    let calls = 0;
    const sim = await listen((_request, response) => {
      calls += 1;
      if (calls === 1) json(response, 503, { data: null }, 'Service Unavailable');
      else json(response, 200, { data: 'ok' });
    });
    expect((await transport(sim.url).call({ method: 'GET', path: '/version' })).data).toBe('ok');
    expect(calls).toBe(2);
  });

  test('a GET answered with a recognised error is not retried', async () => {
    const sim = await listen((_request, response) => {
      const message = "Configuration file 'nodes/pve1/qemu-server/123.conf' does not exist";
      json(response, 500, { data: null, message: `${message}\n` }, message);
    });
    await expect(
      transport(sim.url).call({ method: 'GET', path: '/nodes/pve1/qemu/123/config' }),
    ).rejects.toBeInstanceOf(PveNotFoundError);
    expect(sim.seen).toHaveLength(1);
  });

  test('a connection dropped after the request was sent: GET retried, POST not', async () => {
    const sim = await listen((_request, response) => {
      response.socket?.destroy();
    });
    const http = transport(sim.url);
    const getError = await http.call({ method: 'GET', path: '/nodes' }).catch((e: unknown) => e);
    expect(getError).toBeInstanceOf(UnreachableError);
    expect(sim.seen.filter((r) => r.method === 'GET')).toHaveLength(3);

    const postError = await http
      .call({ method: 'POST', path: '/nodes/pve1/qemu/100/clone', params: { newid: 1042 } })
      .catch((e: unknown) => e);
    expect(postError).toBeInstanceOf(UnreachableError);
    expect((postError as UnreachableError).requestMayHaveBeenSent).toBe(true);
    expect(sim.seen.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  test('a refused connection is retried for a POST too, since nothing was sent', async () => {
    const port = await freePort();
    const http = transport(`http://127.0.0.1:${port}`, { retry: { count: 8, baseMs: 40, maxMs: 40 } });
    const posting = http.call({ method: 'POST', path: '/nodes/pve1/qemu/100/status/start' });
    await new Promise((resolve) => setTimeout(resolve, 60));
    const sim = await listen((_request, response) => {
      json(response, 200, { data: 'UPID:pve1:00000001:00000001:679A423B:qmstart:100:root@pam:' });
    }, port);
    expect((await posting).data).toMatch(/^UPID:/);
    expect(sim.seen).toHaveLength(1);
  });

  test('a refused connection ends as UnreachableError(connect) that says nothing was sent', async () => {
    const port = await freePort();
    const error = await transport(`http://127.0.0.1:${port}`, { retry: { count: 1, baseMs: 1, maxMs: 1 } })
      .call({ method: 'POST', path: '/x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as UnreachableError).reason).toBe('connect');
    expect((error as UnreachableError).requestMayHaveBeenSent).toBe(false);
    expect((error as UnreachableError).method).toBe('POST');
  });
});

describe('HttpTransport: deadlines and aborts', () => {
  test('no answer within timeoutMs is UnreachableError(timeout)', async () => {
    const sim = await listen(() => {
      // never answers
    });
    const started = Date.now();
    const error = await transport(sim.url, { timeoutMs: 100, retry: { count: 0, baseMs: 1, maxMs: 1 } })
      .call({ method: 'GET', path: '/version' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as UnreachableError).reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  test("the caller's abort rejects with its reason and is not retried", async () => {
    const sim = await listen(() => {
      // never answers
    });
    const controller = new AbortController();
    const calling = transport(sim.url).call({ method: 'GET', path: '/version', signal: controller.signal });
    setTimeout(() => {
      controller.abort();
    }, 30);
    const error = await calling.catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    expect(sim.seen).toHaveLength(1);
  });
});

describe('HttpTransport: ticket authentication', () => {
  test('logs in once, sends the cookie (and the CSRF token on writes), logs in again after a 401', async () => {
    let logins = 0;
    let rejectNext = false;
    const sim = await listen((request, response) => {
      if (request.url === '/api2/json/access/ticket') {
        logins += 1;
        json(response, 200, {
          data: {
            ticket: `PVE:root@pam:0000000${logins}::sig+/=`,
            CSRFPreventionToken: `csrf${logins}`,
            username: 'root@pam',
          },
        });
      } else if (rejectNext) {
        rejectNext = false;
        response.writeHead(401, 'No ticket');
        response.end();
      } else {
        json(response, 200, { data: null });
      }
    });
    const login = new TicketSession(async () => {
      const { data } = await http.call({
        method: 'POST',
        path: '/access/ticket',
        params: { username: 'root@pam', password: 'x' },
        anonymous: true,
      });
      return data as { ticket: string; CSRFPreventionToken: string; username: string };
    });
    const http = transport(sim.url, { auth: login });

    await http.call({ method: 'GET', path: '/version' });
    await http.call({ method: 'PUT', path: '/nodes/pve1/qemu/100/config', params: { name: 'x' } });
    rejectNext = true;
    await http.call({ method: 'GET', path: '/version' });

    const calls = sim.seen.filter((r) => r.url !== '/api2/json/access/ticket');
    expect(logins).toBe(2);
    expect(sim.seen[0]?.headers.authorization).toBeUndefined();
    expect(calls[0]?.headers.cookie).toBe('PVEAuthCookie=PVE:root@pam:00000001::sig+/=');
    expect(calls[0]?.headers.csrfpreventiontoken).toBeUndefined();
    expect(calls[1]?.headers.csrfpreventiontoken).toBe('csrf1');
    expect(calls[3]?.headers.cookie).toBe('PVEAuthCookie=PVE:root@pam:00000002::sig+/=');
  });

  test('a refused login is PveUnauthorizedError, without a second try', async () => {
    const sim = await listen((_request, response) => {
      response.writeHead(401, 'authentication failure');
      response.end();
    });
    const http = transport(sim.url);
    const error = await http
      .call({
        method: 'POST',
        path: '/access/ticket',
        params: { username: 'a', password: 'b' },
        anonymous: true,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PveUnauthorizedError);
    expect((error as PveUnauthorizedError).pveMessage).toBe('authentication failure');
    expect(sim.seen).toHaveLength(1);
  });
});
