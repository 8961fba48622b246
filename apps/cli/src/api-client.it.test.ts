import { once } from 'node:events';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';

import selfsigned from 'selfsigned';
import { describe, expect, it, onTestFinished } from 'vitest';

import { nr, tempHome } from './cli-harness.test-support.js';

describe('the API connection', () => {
  it('refuses an API whose TLS certificate no trusted CA signed, before sending the token', async () => {
    const pems = await selfsigned.generate([{ name: 'commonName', value: 'api.example.test' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const seenTokens: string[] = [];
    const server = createServer({ cert: pems.cert, key: pems.private }, (request, response) => {
      seenTokens.push(request.headers.authorization ?? '');
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ agents: [], totalCount: 0 }));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    onTestFinished(() => {
      server.close();
    });
    const { port } = server.address() as AddressInfo;

    const home = await tempHome();
    const run = await nr(home, ['agent', 'list', '--api-url', `https://127.0.0.1:${port}`], {
      env: { NR_TOKEN: 'nrsa_0123456789abcdefghij' },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Cannot reach the API at https:\/\/127\.0\.0\.1:\d+: .*certificate/);
    expect(seenTokens).toEqual([]);
  });
});
