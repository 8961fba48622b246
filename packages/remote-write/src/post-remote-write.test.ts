import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postRemoteWrite } from './post-remote-write.js';

describe('postRemoteWrite', () => {
  const server = createServer();
  afterEach(async () => {
    server.removeAllListeners('request');
    if (server.listening) await once(server.close(), 'close');
  });

  it('sends the body with remote-write’s headers and extra ones, and returns the answer', async () => {
    const seen: { headers: Record<string, string | string[] | undefined>; body: Buffer }[] = [];
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        seen.push({ headers: request.headers, body: Buffer.concat(chunks) });
        response.statusCode = 400;
        response.end('out of order sample\n');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;

    const answer = await postRemoteWrite(
      `http://127.0.0.1:${port}/api/v1/write`,
      Uint8Array.from([1, 2, 3]),
      {
        Authorization: 'Bearer t0ken',
      },
    );

    expect(answer).toEqual({ status: 400, ok: false, message: 'out of order sample' });
    expect(seen).toHaveLength(1);
    expect([...(seen[0]?.body ?? [])]).toEqual([1, 2, 3]);
    expect(seen[0]?.headers).toMatchObject({
      'content-encoding': 'snappy',
      'content-type': 'application/x-protobuf',
      'x-prometheus-remote-write-version': '0.1.0',
      authorization: 'Bearer t0ken',
    });
  });
});
