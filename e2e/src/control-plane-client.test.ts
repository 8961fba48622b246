import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ControlPlaneClient } from './control-plane-client.js';

const REFUSAL = JSON.stringify({
  code: 3,
  message: 'invalid argument',
  details: [{ fieldViolations: [{ field: 'agentPublicIp', description: 'is a loopback address' }] }],
});

describe('the seeding client', () => {
  let server: Server;
  let client: ControlPlaneClient;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/v1/agents') {
        res.writeHead(400, { 'content-type': 'application/json' }).end(REFUSAL);
      } else {
        res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new ControlPlaneClient(`http://127.0.0.1:${String((server.address() as AddressInfo).port)}`);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('returns the answer when the status is the expected one', async () => {
    expect(await client.call('POST', '/v1/regions', 201, { body: {} })).toEqual({ ok: true });
  });

  it("throws with the request, the status and the API's error body otherwise", async () => {
    const failure = client.call('POST', '/v1/agents', 201, { body: {} });
    await expect(failure).rejects.toMatchObject({ code: 'SEED_REQUEST_FAILED' });
    await expect(failure).rejects.toThrow(`POST /v1/agents answered 400: ${REFUSAL}`);
  });
});
