import { randomUUID } from 'node:crypto';

import { createUser } from '@nats-io/nkeys';
import { connect, jwtAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import {
  agentInboxPrefix,
  type EnrollResponse,
  type LogsMessage,
  type MetricsMessage,
  type WireSample,
} from '@noderings/fleet';
import { issueAgentJwt } from '@noderings/fleet/nats-authority';
import { startNatsServer, type NatsServerProcess } from '@noderings/fleet/nats-server';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type TestControlPlane } from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { eventually } from '../dispatch/dispatch.test-support.js';
import { FleetConsumer } from './fleet-consumer.js';
import { FleetIngestRepository } from './fleet-ingest.repository.js';
import type { FleetIngestService, IngestOutcome } from './fleet-ingest.service.js';
import {
  connectAgent,
  createFleetSite,
  enrolled,
  heartbeatMessage,
  newAgentKey,
  publish,
  type AgentKey,
  type FleetSite,
} from './fleet.test-support.js';
import { FleetWorker } from './fleet.worker.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

interface AgentView {
  status: string;
  lastSeenAt: string | null;
  version: string;
  collectors: { name: string; kind: string; status: string }[];
}

interface SeriesView {
  id: string;
  name: string;
  labels: Record<string, string>;
  latestValue: number | string | null;
  latestAt: string | null;
}

/** An enrolled agent connected to NATS as the node agent connects. */
interface ConnectedAgent {
  readonly key: AgentKey;
  readonly enrollment: EnrollResponse;
  readonly nc: NatsConnection;
}

function metricsMessage(samples: WireSample[]): MetricsMessage {
  return { kind: 'metrics', id: randomUUID(), sentAt: new Date().toISOString(), samples };
}

function logsMessage(entries: LogsMessage['entries']): LogsMessage {
  return { kind: 'logs', id: randomUUID(), sentAt: new Date().toISOString(), entries };
}

describe.each(DATABASE_KINDS)('the fleet consumer against a real nats-server on the %s database', (kind) => {
  let nats: NatsServerProcess;
  let t: TestControlPlane;
  let aheadMs = 0;
  const now = () => new Date(Date.now() + aheadMs);
  let site: FleetSite;
  const connections: NatsConnection[] = [];

  beforeAll(async () => {
    nats = await startNatsServer();
    t = await startTestControlPlane(kind, {
      now,
      logLevel: 'debug',
      fleet: { natsUrl: nats.url, accountSeed: nats.authority.accountSeed },
    });
    site = await createFleetSite(t);
  }, 60_000);
  afterAll(async () => {
    try {
      await Promise.all(connections.map((nc) => nc.close()));
      await t.close();
    } finally {
      await nats.stop();
    }
  });

  async function connected(name: string): Promise<ConnectedAgent> {
    const key = newAgentKey();
    const enrollment = await enrolled(t, site, key, { name });
    const nc = await connectAgent(enrollment, key);
    connections.push(nc);
    return { key, enrollment, nc };
  }

  function agentView(agentId: string) {
    return t.call<AgentView>('GET', `/api/v1/fleet/agents/${agentId}`, { as: site.provider });
  }

  async function logLines(agentId: string): Promise<string[]> {
    const response = await t.call<{ entries: { line: string }[] }>(
      'GET',
      `/api/v1/fleet/logs?agentId=${agentId}&limit=1000`,
      { as: site.provider },
    );
    return response.body.entries.map((e) => e.line);
  }

  /** Publishes a log line and waits until it is stored: every message published before it was handled. */
  async function barrier(agent: ConnectedAgent): Promise<void> {
    const line = `barrier ${randomUUID()}`;
    await publish(
      agent.nc,
      agent.key.publicKey,
      logsMessage([{ t: Date.now(), stream: 'stdout', line, fields: {} }]),
    );
    await eventually(async () => {
      expect(await logLines(agent.enrollment.agentId)).toContain(line);
    });
  }

  it('turns a heartbeat into an online agent with its collectors, and integrations into assets', async () => {
    const agent = await connected('hb-1');
    await publish(
      agent.nc,
      agent.key.publicKey,
      heartbeatMessage({
        name: 'hb-1',
        hostname: 'hb-1',
        version: '0.8.2',
        collectors: [
          { name: 'kubelet', kind: 'core', status: 'ok' },
          {
            name: 'postgresql',
            kind: 'integration',
            status: 'ok',
            target: '127.0.0.1:5432',
            details: { version: '16.4' },
          },
          {
            name: 'redis',
            kind: 'integration',
            status: 'degraded',
            message: 'slow',
            target: '127.0.0.1:6379',
          },
          { name: 'nginx', kind: 'integration', status: 'disabled' },
        ],
      }),
    );
    const view = await eventually(async () => {
      const response = await agentView(agent.enrollment.agentId);
      expect(response.body.status).toBe('online');
      return response.body;
    });
    expect(view.version).toBe('0.8.2');
    expect(view.collectors.map((c) => `${c.name}:${c.status}`)).toEqual([
      'kubelet:ok',
      'postgresql:ok',
      'redis:degraded',
      'nginx:disabled',
    ]);
    const assets = await t.call<{ assets: Record<string, unknown>[] }>(
      'GET',
      `/api/v1/fleet/assets?environmentId=${site.environmentId}`,
      { as: site.provider },
    );
    expect(assets.body.assets.filter((a) => a.hostName === 'hb-1')).toEqual([
      expect.objectContaining({
        assetType: 'database',
        integration: 'postgresql',
        target: '127.0.0.1:5432',
        status: 'ok',
        details: { version: '16.4' },
        agentId: agent.enrollment.agentId,
      }),
      expect.objectContaining({ assetType: 'cache', integration: 'redis', status: 'degraded' }),
    ]);

    // Liveness follows the control plane's clock: three missed 30-second heartbeats make it stale.
    aheadMs += 91_000;
    expect((await agentView(agent.enrollment.agentId)).body.status).toBe('stale');
  });

  it('stores metrics per series, with cluster_id when the host is linked to a cluster', async () => {
    const linked = await connected('node-a');
    const unlinked = await connected('node-b');
    const cluster = await t.call<{ id: string }>(
      'POST',
      `/api/v1/fleet/environments/${site.environmentId}/clusters`,
      { as: site.provider, body: { name: 'prod' } },
    );
    expect(cluster.status).toBe(201);
    const link = await t.call('PUT', `/api/v1/fleet/clusters/${cluster.body.id}/hosts/node-a`, {
      as: site.provider,
    });
    expect(link.status).toBe(200);

    const at = Date.now() - 5 * MINUTE;
    const container = { namespace: 'shop', pod: 'web-1', container: 'web' };
    const sample = (n: string, l: Record<string, string>, v: WireSample['v'], tMs = at): WireSample => ({
      n,
      l,
      v,
      t: tMs,
    });
    await publish(
      linked.nc,
      linked.key.publicKey,
      metricsMessage([
        sample('node_cpu_usage_ratio', {}, 0.25),
        // An agent's own cluster_id is never trusted.
        sample('container_cpu_usage_ratio', { ...container, cluster_id: 'spoofed' }, 1.5),
        sample('container_cpu_usage_ratio', { ...container, cluster_id: 'spoofed' }, 'NaN', at + 1000),
      ]),
    );
    await publish(
      unlinked.nc,
      unlinked.key.publicKey,
      metricsMessage([sample('node_cpu_usage_ratio', {}, 0.5)]),
    );

    const series = await eventually(async () => {
      const response = await t.call<{ series: SeriesView[] }>(
        'GET',
        `/api/v1/fleet/agents/${linked.enrollment.agentId}/series`,
        { as: site.provider },
      );
      expect(response.body.series).toHaveLength(2);
      return response.body.series;
    });
    expect(series).toEqual([
      expect.objectContaining({
        name: 'container_cpu_usage_ratio',
        labels: { ...container, cluster_id: cluster.body.id },
        latestValue: 'NaN',
        latestAt: new Date(at + 1000).toISOString(),
      }),
      expect.objectContaining({
        name: 'node_cpu_usage_ratio',
        labels: { cluster_id: cluster.body.id },
        latestValue: 0.25,
      }),
    ]);
    const other = await eventually(async () => {
      const response = await t.call<{ series: SeriesView[] }>(
        'GET',
        `/api/v1/fleet/agents/${unlinked.enrollment.agentId}/series`,
        { as: site.provider },
      );
      expect(response.body.series).toHaveLength(1);
      return response.body.series;
    });
    expect(other[0]?.labels).toEqual({});

    const points = await t.call<{ series: { agentId: string; points: { value: unknown }[] }[] }>(
      'GET',
      `/api/v1/fleet/series/points?environmentId=${site.environmentId}&name=node_cpu_usage_ratio&label.cluster_id=${cluster.body.id}&from=${new Date(at - MINUTE).toISOString()}`,
      { as: site.provider },
    );
    expect(points.status).toBe(200);
    expect(points.body.series).toEqual([
      expect.objectContaining({
        agentId: linked.enrollment.agentId,
        points: [{ time: new Date(at).toISOString(), value: 0.25 }],
      }),
    ]);
    const unknownParameter = await t.call(
      'GET',
      `/api/v1/fleet/series/points?environmentId=${site.environmentId}&name=up&cluster=1`,
      { as: site.provider },
    );
    expect(unknownParameter.status).toBe(400);

    const detail = await t.call<{ hosts: { hostname: string }[] }>(
      'GET',
      `/api/v1/fleet/clusters/${cluster.body.id}`,
      {
        as: site.provider,
      },
    );
    expect(detail.body.hosts.map((h) => h.hostname)).toEqual(['node-a']);
  });

  it('answers the cluster restarts query per step, by workload too', async () => {
    const agent = await connected('node-r');
    const cluster = await t.call<{ id: string }>(
      'POST',
      `/api/v1/fleet/environments/${site.environmentId}/clusters`,
      { as: site.provider, body: { name: 'restarts' } },
    );
    await t.call('PUT', `/api/v1/fleet/clusters/${cluster.body.id}/hosts/node-r`, { as: site.provider });
    const base = Math.floor(Date.now() / MINUTE) * MINUTE - 30 * MINUTE;
    const web = {
      namespace: 'shop',
      pod: 'web-1',
      container: 'web',
      workload_kind: 'Deployment',
      workload: 'web',
    };
    const bare = { namespace: 'shop', pod: 'debug', container: 'sh' };
    const samples: WireSample[] = [
      ...[0, 0, 1, 1, 3, 3].map((v, i) => ({
        n: 'container_restarts_total',
        l: web,
        v,
        t: base + i * MINUTE,
      })),
      ...[5, 5, 0, 1].map((v, i) => ({ n: 'container_restarts_total', l: bare, v, t: base + i * MINUTE })),
    ];
    const message = metricsMessage(samples);
    await publish(agent.nc, agent.key.publicKey, message);
    // Published twice with another Nats-Msg-Id: the message id keeps it from counting twice.
    await publish(agent.nc, agent.key.publicKey, message, randomUUID());
    await barrier(agent);

    const query = (extra = '') =>
      t.call<{
        points: { time: string; restarts: number }[];
        windowSeconds: number;
        workloads?: {
          workloadKind: string | null;
          workload: string | null;
          points: { restarts: number }[];
        }[];
      }>(
        'GET',
        `/api/v1/fleet/clusters/${cluster.body.id}/restarts?from=${new Date(base).toISOString()}&to=${new Date(base + 5 * MINUTE).toISOString()}&step=1m${extra}`,
        { as: site.provider },
      );
    const total = await query();
    expect(total.status).toBe(200);
    expect(total.body.windowSeconds).toBe(300);
    expect(total.body.points.map((p) => p.restarts)).toEqual([0, 0, 1, 1, 2, 0]);
    const byWorkload = await query('&by=workload');
    expect(byWorkload.body.workloads).toEqual([
      expect.objectContaining({ workloadKind: 'Deployment', workload: 'web' }),
      expect.objectContaining({ workloadKind: null, workload: null }),
    ]);
    expect(byWorkload.body.workloads?.[0]?.points.map((p) => p.restarts)).toEqual([0, 0, 1, 0, 2, 0]);
    expect(byWorkload.body.workloads?.[1]?.points.map((p) => p.restarts)).toEqual([0, 0, 0, 1, 0, 0]);

    const backwards = await t.call(
      'GET',
      `/api/v1/fleet/clusters/${cluster.body.id}/restarts?from=${new Date(base).toISOString()}&to=${new Date(base - MINUTE).toISOString()}&step=60`,
      { as: site.provider },
    );
    expect(backwards.status).toBe(400);
    const tooMany = await t.call(
      'GET',
      `/api/v1/fleet/clusters/${cluster.body.id}/restarts?from=${new Date(base - 30 * DAY).toISOString()}&to=${new Date(base).toISOString()}&step=60`,
      { as: site.provider },
    );
    expect(tooMany.status).toBe(400);
  });

  it('stores a message once, however often it is published', async () => {
    const agent = await connected('dup-1');
    const message = logsMessage([
      {
        t: Date.now() - 2000,
        stream: 'stdout',
        line: 'first',
        fields: { k8s_namespace: 'shop', k8s_pod: 'nginx-1' },
      },
      {
        t: Date.now() - 1000,
        stream: 'stderr',
        line: 'second',
        fields: { k8s_namespace: 'shop', k8s_pod: 'api-1' },
      },
    ]);
    await publish(agent.nc, agent.key.publicKey, message, randomUUID());
    await publish(agent.nc, agent.key.publicKey, message, randomUUID());
    await barrier(agent);
    const lines = await logLines(agent.enrollment.agentId);
    expect(lines.filter((l) => l === 'first' || l === 'second')).toEqual(['second', 'first']);

    const pods = await t.call<{ entries: { line: string; fields: Record<string, string> }[] }>(
      'GET',
      `/api/v1/fleet/logs?environmentId=${site.environmentId}&k8s_namespace=shop&k8s_pod=nginx*`,
      { as: site.provider },
    );
    expect(pods.body.entries).toEqual([
      expect.objectContaining({ line: 'first', fields: { k8s_namespace: 'shop', k8s_pod: 'nginx-1' } }),
    ]);
  });

  it('drops invalid messages with a warning and goes on with the next one', async () => {
    const agent = await connected('invalid-1');
    await publish(agent.nc, agent.key.publicKey, { kind: 'heartbeat', raw: '{"kind": "heartbeat", oops' });
    await publish(agent.nc, agent.key.publicKey, {
      kind: 'metrics',
      raw: JSON.stringify({ kind: 'metrics', samples: [] }),
    });
    // A log message on the metrics subject.
    await publish(agent.nc, agent.key.publicKey, {
      kind: 'metrics',
      raw: JSON.stringify(logsMessage([{ t: 1, stream: 'stdout', line: 'misfiled', fields: {} }])),
    });
    await barrier(agent);
    expect(await logLines(agent.enrollment.agentId)).not.toContain('misfiled');
    const warnings = t.logLines.filter((l) => l.includes('invalid fleet message dropped'));
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.some((w) => w.includes(agent.enrollment.agentId))).toBe(true);
  });

  it("drops a released agent's messages", async () => {
    const agent = await connected('released-1');
    const witness = await connected('witness-1');
    await t.call('POST', `/api/v1/fleet/agents/${agent.enrollment.agentId}/release-identity`, {
      as: site.provider,
    });
    await publish(
      agent.nc,
      agent.key.publicKey,
      logsMessage([{ t: Date.now(), stream: 'stdout', line: 'after release', fields: {} }]),
    );
    await barrier(witness);
    expect(await logLines(agent.enrollment.agentId)).toEqual([]);
    const view = await agentView(agent.enrollment.agentId);
    expect(view.body).toMatchObject({ status: 'released', lastSeenAt: null });
    expect(
      t.logLines.some((l) => l.includes('fleet message dropped') && l.includes(agent.key.publicKey)),
    ).toBe(true);
  });

  it("refuses an agent publishing under another agent's subject", async () => {
    const mallory = await connected('mallory-1');
    const victim = await connected('victim-1');
    await expect(
      publish(mallory.nc, victim.key.publicKey, heartbeatMessage({ name: 'victim-1', hostname: 'victim-1' })),
    ).rejects.toThrow(/Permissions Violation/);
    expect((await agentView(victim.enrollment.agentId)).body.status).toBe('never_seen');
  });

  it('prunes samples, logs and message ids past their retention', async () => {
    const agent = await connected('prune-1');
    await publish(agent.nc, agent.key.publicKey, metricsMessage([{ n: 'up', l: {}, v: 1, t: Date.now() }]));
    await barrier(agent);
    const counts = async () => {
      const of = async (table: 'fleet_samples' | 'fleet_logs' | 'fleet_message_ids') =>
        Number(
          (
            await t.cp.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<string>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      return {
        samples: await of('fleet_samples'),
        logs: await of('fleet_logs'),
        ids: await of('fleet_message_ids'),
      };
    };
    const before = await counts();
    expect(before.samples).toBeGreaterThan(0);
    const sweepAt = (ms: number) =>
      new FleetWorker({
        ingest: new FleetIngestRepository(t.cp.db),
        now: () => new Date(Date.now() + ms),
        logger: t.cp.logger,
      }).sweep();
    await sweepAt(DAY);
    const afterADay = await counts();
    // Message ids outlive the stream's 24 hours; logs and samples are younger than theirs.
    expect(afterADay).toEqual(before);
    await sweepAt(2 * DAY);
    expect(await counts()).toMatchObject({ ids: 0, logs: before.logs, samples: before.samples });
    await sweepAt(4 * DAY);
    expect(await counts()).toMatchObject({ logs: 0, samples: before.samples });
    await sweepAt(9 * DAY);
    expect(await counts()).toMatchObject({ samples: 0 });
    expect(await t.cp.db.selectFrom('fleet_series').select('id').execute()).toEqual([]);
  });
});

describe('FleetConsumer delivery', () => {
  let nats: NatsServerProcess;
  beforeAll(async () => {
    nats = await startNatsServer();
  });
  afterAll(() => nats.stop());

  const silent = pino({ level: process.env.DEBUG_FLEET === undefined ? 'silent' : 'debug' });

  it('naks a message it could not store, gets it again, and shares the durable consumer between replicas', async () => {
    const handled: string[] = [];
    let failures = 0;
    const ingest: Pick<FleetIngestService, 'handle'> = {
      handle: (_subject, data): Promise<IngestOutcome> => {
        const { id } = JSON.parse(new TextDecoder().decode(data)) as { id: string };
        // The first delivery of the first message meets a database that is down.
        if (handled.length === 0 && failures === 0) {
          failures++;
          return Promise.reject(new Error('database unavailable'));
        }
        handled.push(id);
        return Promise.resolve({ kind: 'stored', agentId: 'agent', messageKind: 'logs' });
      },
    };
    const replicas = ['a', 'b'].map(
      (name) =>
        new FleetConsumer({
          natsUrl: nats.url,
          accountSeed: nats.authority.accountSeed,
          ingest,
          now: () => new Date(),
          logger: silent,
          name,
        }),
    );
    for (const r of replicas) r.start();
    const user = createUser();
    const publicKey = user.getPublicKey();
    const { jwt } = await issueAgentJwt(
      nats.authority.accountSeed,
      publicKey,
      'agent',
      new Date(Date.now() + 3600_000),
    );
    const nc = await connect({
      servers: nats.url,
      authenticator: jwtAuthenticator(jwt, user.getSeed()),
      inboxPrefix: agentInboxPrefix(publicKey),
    });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) {
        const message = logsMessage([{ t: Date.now(), stream: 'stdout', line: `line ${i}`, fields: {} }]);
        ids.push(message.id);
        // The first replica to connect creates the stream; until then a publish has no responders.
        await eventually(() => publish(nc, publicKey, message));
      }
      await eventually(() => {
        expect([...new Set(handled)].sort()).toEqual([...ids].sort());
      }, 20_000);
      const counts = replicas.map((r) => r.counts);
      expect(counts.reduce((n, c) => n + c.failed, 0)).toBe(1);
      expect(counts.reduce((n, c) => n + c.stored, 0)).toBe(handled.length);
    } finally {
      await nc.close();
      await Promise.all(replicas.map((r) => r.stop()));
    }
  });

  it('stops promptly, right after starting or while the NATS server cannot be reached', async () => {
    for (const natsUrl of [nats.url, 'nats://127.0.0.1:1']) {
      const consumer = new FleetConsumer({
        natsUrl,
        accountSeed: nats.authority.accountSeed,
        ingest: { handle: () => Promise.reject(new Error('never called')) },
        now: () => new Date(),
        logger: silent,
        name: 'stopping',
      });
      consumer.start();
      const started = Date.now();
      await consumer.stop();
      expect(Date.now() - started, natsUrl).toBeLessThan(6000);
    }
  });
});
