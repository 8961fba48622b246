import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startPrometheus, type PrometheusProcess } from './prometheus-process.js';
import { bitsOf } from './protobuf-bytes.test-support.js';
import { isStaleMarker } from './stale-marker.js';
import type { Sample } from './types.js';
import { decodeWriteRequest } from './write-request-decoder.js';

interface ReceivedSeries {
  readonly labels: Record<string, string>;
  readonly samples: readonly Sample[];
}

async function listen(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function waitFor(what: string, condition: () => boolean, logs: () => string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; Prometheus said:\n${logs()}`);
    await delay(100);
  }
}

describe('a real Prometheus agent remote-writing to a receiver that uses decodeWriteRequest', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('delivers scraped series with relabelled and external labels, then a staleness marker', async () => {
    let goneExposed = true;
    const target = createServer((_, response) => {
      response.setHeader('Content-Type', 'text/plain; version=0.0.4');
      response.end(
        [
          '# TYPE pve_cpu_usage_ratio gauge',
          'pve_cpu_usage_ratio{id="qemu/100",name="NR-a",node="pve1",type="qemu"} 0.5',
          'pve_cpu_usage_ratio{id="qemu/101",name="other",node="pve1",type="qemu"} 0.7',
          '# TYPE pve_uptime_seconds gauge',
          ...(goneExposed
            ? ['pve_uptime_seconds{id="qemu/102",name="NR-gone",node="pve1",type="qemu"} 42']
            : []),
          '',
        ].join('\n'),
      );
    });
    const received: ReceivedSeries[] = [];
    const refusals: string[] = [];
    let metadataOnly = 0;
    const headers: Record<string, string | string[] | undefined>[] = [];
    const receiver = createServer((request, response) => {
      void readBody(request).then((body) => {
        headers.push({
          encoding: request.headers['content-encoding'],
          type: request.headers['content-type'],
          version: request.headers['x-prometheus-remote-write-version'],
        });
        try {
          const { timeseries } = decodeWriteRequest(body);
          if (timeseries.length === 0) metadataOnly++;
          for (const series of timeseries)
            received.push({
              labels: Object.fromEntries(series.labels.map((l) => [l.name, l.value])),
              samples: series.samples,
            });
          response.statusCode = 204;
        } catch (e: unknown) {
          refusals.push(String(e));
          response.statusCode = 400;
        }
        response.end();
      });
    });
    const targetPort = await listen(target);
    const receiverPort = await listen(receiver);
    cleanups.push(async () => {
      target.closeAllConnections();
      receiver.closeAllConnections();
      await Promise.all([once(target.close(), 'close'), once(receiver.close(), 'close')]);
    });

    const prometheus: PrometheusProcess = await startPrometheus({
      mode: 'agent',
      config: `
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  external_labels:
    region: eu-test
scrape_configs:
  - job_name: pve
    static_configs:
      - targets: ['127.0.0.1:${targetPort}']
        labels:
          agent_id: agent-7
    relabel_configs:
      - target_label: instance
        replacement: pve1.example.net
    metric_relabel_configs:
      - source_labels: [name]
        regex: other
        action: drop
remote_write:
  - url: http://127.0.0.1:${receiverPort}/api/v1/write
    queue_config:
      batch_send_deadline: 100ms
      min_backoff: 50ms
      max_backoff: 500ms
    metadata_config:
      send_interval: 1s
`,
    });
    cleanups.push(() => prometheus.stop());

    const find = (name: string, guest?: string) =>
      received.filter((s) => s.labels.__name__ === name && (guest === undefined || s.labels.name === guest));

    await waitFor('pve_cpu_usage_ratio', () => find('pve_cpu_usage_ratio').length > 0, prometheus.logs);
    expect(find('pve_cpu_usage_ratio')[0]).toEqual({
      labels: {
        __name__: 'pve_cpu_usage_ratio',
        agent_id: 'agent-7',
        id: 'qemu/100',
        instance: 'pve1.example.net',
        job: 'pve',
        name: 'NR-a',
        node: 'pve1',
        region: 'eu-test',
        type: 'qemu',
      },
      samples: [{ value: 0.5, timestampMs: expect.any(Number) as number }],
    });
    expect(find('up')[0]?.samples[0]?.value).toBe(1);

    await waitFor('NR-gone', () => find('pve_uptime_seconds', 'NR-gone').length > 0, prometheus.logs);
    goneExposed = false;
    const staleSamples = () =>
      find('pve_uptime_seconds', 'NR-gone').flatMap((s) => s.samples.filter((x) => isStaleMarker(x.value)));
    await waitFor('a staleness marker for NR-gone', () => staleSamples().length > 0, prometheus.logs);
    // What Prometheus sent, bit for bit: not merely recognised, but kept exactly by the decoder.
    expect(bitsOf(staleSamples()[0]?.value ?? 0)).toBe(0x7ff0000000000002n);

    // Prometheus sends metric metadata (WriteRequest field 3) in requests of its own, which decode to nothing.
    await waitFor('a metadata request', () => metadataOnly > 0, prometheus.logs);
    expect(received.filter((s) => s.labels.name === 'other')).toEqual([]);
    expect(find('pve_cpu_usage_ratio', 'NR-a').every((s) => s.samples.every((x) => x.value === 0.5))).toBe(
      true,
    );
    expect(refusals).toEqual([]);
    expect(new Set(headers.map((h) => JSON.stringify(h)))).toEqual(
      new Set([JSON.stringify({ encoding: 'snappy', type: 'application/x-protobuf', version: '0.1.0' })]),
    );
  }, 60_000);
});
