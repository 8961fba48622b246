import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { createScrapeSender, decodeWriteRequest, isStaleMarker, RemoteWriteRefusedError } from './index.js';

describe('createScrapeSender', () => {
  const server = createServer();
  afterEach(async () => {
    server.removeAllListeners('request');
    if (server.listening) await once(server.close(), 'close');
  });

  /** A receiver answering `status`; returns what it was sent, one decoded request per POST. */
  async function receiver(status: number) {
    const requests: { authorization: string | undefined; series: string[] }[] = [];
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const { timeseries } = decodeWriteRequest(Buffer.concat(chunks));
        requests.push({
          authorization: request.headers.authorization,
          series: timeseries.map(
            (s) =>
              `${s.labels.map((l) => `${l.name}=${l.value}`).join(',')} ${s.samples
                .map((x) =>
                  isStaleMarker(x.value) ? 'stale' : `${String(x.value)}@${String(x.timestampMs)}`,
                )
                .join(' ')}`,
          ),
        });
        response.statusCode = status;
        response.end(status === 204 ? '' : 'no such agent');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return {
      url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/api/v1/write`,
      requests,
    };
  }

  it('sends each scrape in batches, with sorted labels, and marks a vanished series stale', async () => {
    const { url, requests } = await receiver(204);
    const sender = createScrapeSender({
      url,
      headers: { Authorization: 'Bearer t0ken' },
      maxSeriesPerRequest: 2,
    });
    await sender.send(
      [
        { labels: { node: 'pve1', __name__: 'pve_up' }, value: 1 },
        { labels: { __name__: 'pve_up', node: 'pve2' }, value: 1 },
        { labels: { __name__: 'pve_up', node: 'pve3' }, value: 0 },
      ],
      1000,
    );
    await sender.send([{ labels: { __name__: 'pve_up', node: 'pve1' }, value: 1 }], 2000);
    expect(requests).toEqual([
      {
        authorization: 'Bearer t0ken',
        series: ['__name__=pve_up,node=pve1 1@1000', '__name__=pve_up,node=pve2 1@1000'],
      },
      { authorization: 'Bearer t0ken', series: ['__name__=pve_up,node=pve3 0@1000'] },
      {
        authorization: 'Bearer t0ken',
        series: ['__name__=pve_up,node=pve1 1@2000', '__name__=pve_up,node=pve2 stale'],
      },
      { authorization: 'Bearer t0ken', series: ['__name__=pve_up,node=pve3 stale'] },
    ]);
  });

  it('rejects with the status and the receiver’s message when it refuses', async () => {
    const { url } = await receiver(401);
    const error = await createScrapeSender({ url })
      .send([{ labels: { __name__: 'pve_up' }, value: 1 }], 1000)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteWriteRefusedError);
    expect(error).toMatchObject({ status: 401, receiverMessage: 'no such agent' });
  });
});
