import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ProxmoxVM } from '@noderings/kube';
import { keyOf, parseObjectKey } from '@noderings/kube';
import { captureLogs } from '@noderings/log/log-capture';

import type { RunningOperator } from './operator.js';
import type { Env } from './operator-fixture.test-support.js';
import {
  callsMatching,
  createVm,
  eventually,
  reconcileCount,
  startEnv,
} from './operator-fixture.test-support.js';

const LEASE = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 200 };

async function untilRunning(env: Env, vm: ProxmoxVM): Promise<ProxmoxVM> {
  return eventually(async () => {
    const now = await env.kube.proxmoxVMs.get(parseObjectKey(keyOf(vm)));
    expect(now.status?.phase).toBe('Running');
    return now;
  });
}

interface Replica {
  identity: string;
  operator: RunningOperator;
  lines: string[];
}

function logged(replica: Replica, msg: string): Record<string, unknown>[] {
  return replica.lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.msg === msg);
}

async function reconciles(replica: Replica): Promise<number> {
  const counts = await Promise.all(
    ['done', 'requeue', 'error', 'terminal'].map((result) =>
      reconcileCount(replica.operator, 'proxmoxvm', result),
    ),
  );
  return counts.reduce((a, b) => a + b, 0);
}

describe('leader election', () => {
  let env: Env;

  beforeAll(async () => {
    env = await startEnv();
  });

  afterAll(async () => {
    await env.close();
  });

  async function startReplica(identity: string): Promise<Replica> {
    const { logger, secrets, raw: lines } = captureLogs({ name: 'operator' });
    const operator = await env.startOperator({
      identity,
      leaderElection: true,
      lease: LEASE,
      logger,
      secrets,
    });
    return { identity, operator, lines };
  }

  it('lets one replica reconcile, and the other take over when it stops', async () => {
    const replicas = await Promise.all([startReplica('replica-a'), startReplica('replica-b')]);
    const [leader, follower] = await eventually(() => {
      const leaders = replicas.filter((r) => r.operator.isLeader());
      expect(leaders).toHaveLength(1);
      const standby = replicas.filter((r) => !r.operator.isLeader());
      return [leaders[0], standby[0]] as [Replica, Replica];
    });
    await eventually(() => {
      expect(logged(follower, 'leader observed').map((e) => e.leader)).toContain(leader.identity);
    });

    const first = await createVm(env);
    await untilRunning(env, first);
    expect(await callsMatching(env, 'POST', /\/clone$/)).toHaveLength(1);
    expect(await reconciles(leader)).toBeGreaterThan(0);
    expect(await reconciles(follower)).toBe(0);
    expect(logged(follower, 'reconciling')).toEqual([]);
    expect(follower.operator.isLeader()).toBe(false);

    await leader.operator.stop();
    await eventually(() => {
      expect(follower.operator.isLeader()).toBe(true);
    });
    const second = await createVm(env);
    await untilRunning(env, second);
    expect(await reconcileCount(follower.operator, 'proxmoxvm', 'done')).toBeGreaterThan(0);
    expect(logged(follower, 'reconciling')).toHaveLength(1);
    // The first guest was adopted as it is, not cloned again by the new leader.
    expect(await callsMatching(env, 'POST', /\/clone$/)).toHaveLength(2);
  });
});

describe('/metrics, /healthz and /readyz', () => {
  let env: Env;
  let operator: RunningOperator;

  beforeAll(async () => {
    env = await startEnv();
    operator = await env.startOperator();
  });

  afterAll(async () => {
    await env.close();
  });

  it('reports health at once, readiness once synced, and counts reconciles and Proxmox calls', async () => {
    expect((await fetch(`${operator.url}/healthz`)).status).toBe(200);
    await eventually(async () => {
      expect((await fetch(`${operator.url}/readyz`)).status).toBe(200);
    });

    await untilRunning(env, await createVm(env));
    const metrics = await fetch(`${operator.url}/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(await reconcileCount(operator, 'proxmoxvm', 'done')).toBeGreaterThan(0);
    expect(text).toMatch(
      /^noderings_operator_reconcile_duration_seconds_count\{controller="proxmoxvm"\} [1-9]/m,
    );
    for (const endpoint of ['cloneVm', 'getVmConfig', 'updateVmConfig', 'startVm']) {
      expect(text).toMatch(
        new RegExp(
          `^noderings_operator_proxmox_calls_total\\{instance="default",endpoint="${endpoint}",status="ok"\\} [1-9]`,
          'm',
        ),
      );
    }
  });

  it('counts a Proxmox call that failed by its HTTP status', async () => {
    await env.sim('POST', '/sim/faults', {
      method: 'POST',
      path: '/qemu/\\d+/config$',
      status: 500,
      message: 'internal error',
      count: 1,
    });
    await untilRunning(env, await createVm(env));
    const text = await (await fetch(`${operator.url}/metrics`)).text();
    expect(text).toMatch(
      /^noderings_operator_proxmox_calls_total\{instance="default",endpoint="updateVmConfig",status="500"\} 1$/m,
    );
    expect(await reconcileCount(operator, 'proxmoxvm', 'error')).toBeGreaterThan(0);
  });
});
