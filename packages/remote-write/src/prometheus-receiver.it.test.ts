import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRemoteWrite } from './post-remote-write.js';
import { startPrometheus, type PrometheusProcess } from './prometheus-process.js';
import { STALE_NAN } from './stale-marker.js';
import type { Label, WriteRequest } from './types.js';
import { encodeWriteRequest } from './write-request-encoder.js';

interface PromResult {
  metric: Record<string, string>;
  value?: [number, string];
  values?: [number, string][];
}

async function promQuery(url: string, path: string, params: Record<string, string>): Promise<PromResult[]> {
  const response = await fetch(`${url}${path}?${new URLSearchParams(params).toString()}`);
  const body = (await response.json()) as { status: string; data: { result: PromResult[] } };
  expect(body.status).toBe('success');
  return body.data.result;
}

function asRecord(labels: readonly Label[]): Record<string, string> {
  return Object.fromEntries(labels.map((l) => [l.name, l.value]));
}

describe('a real Prometheus receiving what encodeWriteRequest writes', () => {
  let prometheus: PrometheusProcess | undefined;

  beforeAll(async () => {
    prometheus = await startPrometheus({
      config: 'global:\n  scrape_interval: 1m\n',
      args: ['--web.enable-remote-write-receiver'],
    });
  });

  afterAll(async () => {
    await prometheus?.stop();
  });

  it('stores our series with their labels and values, and honours our staleness marker', async () => {
    const url = prometheus?.url ?? '';
    const t2 = Math.floor(Date.now() / 1000) * 1000;
    const [t0, t1] = [t2 - 60_000, t2 - 30_000];
    const guest: Label[] = [
      // Out of order on purpose: the encoder sorts.
      { name: 'type', value: 'qemu' },
      { name: 'id', value: 'qemu/100' },
      { name: 'name', value: 'NR-ünïcødé 🚀' },
      { name: 'node', value: 'pve1' },
      { name: 'agent_id', value: '0f6c1d1e-6a39-4a51-9b8b-2d3c7d8e9f01' },
      { name: 'instance', value: 'pve1.example.net' },
    ];
    const request: WriteRequest = {
      timeseries: [
        {
          labels: [{ name: '__name__', value: 'pve_cpu_usage_ratio' }, ...guest],
          samples: [
            { value: 0.25, timestampMs: t0 },
            { value: 0.5, timestampMs: t1 },
            { value: 0.125, timestampMs: t2 },
          ],
        },
        {
          labels: [{ name: '__name__', value: 'pve_network_receive_bytes_total' }, ...guest],
          samples: [
            { value: 1e12, timestampMs: t0 },
            { value: 1e12 + 4096, timestampMs: t1 },
            { value: STALE_NAN, timestampMs: t2 },
          ],
        },
        {
          labels: [
            { name: '__name__', value: 'nr_special_values' },
            { name: 'case', value: 'nan' },
          ],
          samples: [
            { value: NaN, timestampMs: t0 },
            { value: Infinity, timestampMs: t1 },
            { value: -Infinity, timestampMs: t2 },
          ],
        },
      ],
    };

    const response = await postRemoteWrite(`${url}/api/v1/write`, encodeWriteRequest(request));
    expect(response).toEqual({ status: 204, ok: true, message: '' });

    const range = { start: String(t0 / 1000), end: String(t2 / 1000), step: '30' };
    const cpu = await promQuery(url, '/api/v1/query_range', { query: 'pve_cpu_usage_ratio', ...range });
    expect(cpu).toEqual([
      {
        metric: { __name__: 'pve_cpu_usage_ratio', ...asRecord(guest) },
        values: [
          [t0 / 1000, '0.25'],
          [t1 / 1000, '0.5'],
          [t2 / 1000, '0.125'],
        ],
      },
    ]);

    const special = await promQuery(url, '/api/v1/query_range', { query: 'nr_special_values', ...range });
    expect(special[0]?.values).toEqual([
      [t0 / 1000, 'NaN'],
      [t1 / 1000, '+Inf'],
      [t2 / 1000, '-Inf'],
    ]);

    const network = (time: number) =>
      promQuery(url, '/api/v1/query', {
        query: 'pve_network_receive_bytes_total',
        time: String(time / 1000),
      });
    expect((await network(t1))[0]?.value).toEqual([t1 / 1000, '1000000004096']);
    // A NaN that were not the marker would be returned as "NaN"; the marker ends the series instead.
    expect(await network(t2)).toEqual([]);
  });

  it('answers 400 to a sample older than what it has, which is why senders go scrape by scrape', async () => {
    const url = prometheus?.url ?? '';
    const now = Date.now();
    const series = (timestampMs: number) => ({
      timeseries: [
        { labels: [{ name: '__name__', value: 'nr_order_test' }], samples: [{ value: 1, timestampMs }] },
      ],
    });
    expect((await postRemoteWrite(`${url}/api/v1/write`, encodeWriteRequest(series(now)))).status).toBe(204);
    const late = await postRemoteWrite(`${url}/api/v1/write`, encodeWriteRequest(series(now - 1000)));
    expect(late.status).toBe(400);
    expect(late.message).toMatch(/out of order/);
  });
});
