import { randomUUID } from 'node:crypto';

import type { ProxmoxVM } from '@noderings/kube';
import { KubeForbiddenError, KubeClient } from '@noderings/kube';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  changeVm,
  claimStatus,
  eventually,
  kubeconfigFor,
  newWorld,
  openTestDb,
  orderVm,
  PASSWORD_HASH,
  recordingLogger,
  seedSeller,
  SSH_PUBLIC_KEY,
  startAgentClusterSim,
  TcpProxy,
  vmRow,
  type AgentClusterSim,
  type RecordingLogger,
  type TestDb,
  type World,
} from './dispatch.test-support.js';
import { Dispatcher, type DispatcherOptions } from './dispatcher.js';

const FAST: DispatcherOptions = {
  pollIntervalMs: 100,
  leaseMs: 10_000,
  retryBaseMs: 100,
  maxBackoffMs: 1_000,
  resyncIntervalMs: 300,
};
const TEST_FINALIZER = 'vm.noderings.com/test-operator';

let testDb: TestDb | undefined;
let kube: AgentClusterSim | undefined;
const kubeconfigs = new Map<string, string>();
const running: Dispatcher[] = [];

beforeAll(async () => {
  testDb = await openTestDb();
  kube = await startAgentClusterSim();
});

afterAll(async () => {
  try {
    await Promise.allSettled(running.map((d) => d.stop()));
    await kube?.close();
  } finally {
    await testDb?.close();
  }
});

function env(): { db: TestDb['db']; kube: AgentClusterSim } {
  if (testDb === undefined || kube === undefined) throw new Error('not started');
  return { db: testDb.db, kube };
}

/** A seller of its own (so an agent and namespace of its own) and the kubeconfig the control plane holds for it. */
async function newAgent(server?: (sim: AgentClusterSim) => string): Promise<World & { namespace: string }> {
  const { db, kube } = env();
  const seller = await seedSeller(db);
  kubeconfigs.set(seller.agentId, await kube.peerAgent(seller.agentId, server?.(kube)));
  return { ...newWorld(db, seller), namespace: `${seller.agentId}-operator` };
}

function startDispatcher(
  world: World,
  options: DispatcherOptions = {},
): { dispatcher: Dispatcher; logger: RecordingLogger } {
  const logger = recordingLogger();
  const dispatcher = new Dispatcher({
    allowPrivateDestinations: true,
    db: world.db,
    secretBox: world.secretBox,
    kubeconfigOf: (agentId) => {
      const kubeconfig = kubeconfigs.get(agentId);
      return kubeconfig === undefined
        ? Promise.reject(new Error(`no kubeconfig for agent ${agentId}`))
        : Promise.resolve(kubeconfig);
    },
    releaseClaim: (claimId) => world.claims.release(claimId),
    now: () => new Date(),
    logger,
    owner: `test-${randomUUID()}`,
    options: { ...FAST, ...options },
  });
  running.push(dispatcher);
  dispatcher.start();
  return { dispatcher, logger };
}

function crOf(namespace: string, vmId: string): Promise<ProxmoxVM | undefined> {
  return env().kube.admin.proxmoxVMs.find({ namespace, name: `nr-${vmId}` });
}

async function dispatched(world: World, vmId: string, generation: number) {
  return eventually(async () => {
    const row = await vmRow(world.db, vmId);
    expect(row.dispatched_generation).toBe(generation);
    return row;
  });
}

/** What the operator does on a new ProxmoxVM: hold it with a finalizer until the guest is deleted. */
async function addFinalizer(namespace: string, vmId: string): Promise<void> {
  await env().kube.admin.proxmoxVMs.mergePatch(
    { namespace, name: `nr-${vmId}` },
    { metadata: { finalizers: [TEST_FINALIZER] } },
  );
}

describe('a VM ordered, changed, reported on and deleted', () => {
  let world: World & { namespace: string };
  let vmId: string;
  let ordered: Awaited<ReturnType<typeof orderVm>>;
  let dispatcher: Dispatcher;

  beforeAll(async () => {
    world = await newAgent();
    ordered = await orderVm(world, ['customer-b', 'customer-a']);
    vmId = ordered.id;
    ({ dispatcher } = startDispatcher(world));
  });
  afterAll(async () => {
    await dispatcher.stop();
  });

  it('gets its cloud-init Secret and a ProxmoxVM with the exact spec, and nothing secret in it', async () => {
    const row = await dispatched(world, vmId, 1);
    expect(row).toMatchObject({
      dispatch_attempts: 0,
      dispatch_error: '',
      lease_owner: null,
      lease_until: null,
    });

    const cr = await crOf(world.namespace, vmId);
    expect(cr?.metadata?.labels).toEqual({ 'vm.noderings.com/vm-id': vmId });
    expect(cr?.spec).toEqual({
      ...ordered.spec,
      instance: 'default',
      cloudInitSecretRef: `nr-${vmId}-cloudinit`,
      powerState: 'Running',
      tags: ['customer-b', 'customer-a'],
    });
    const text = JSON.stringify(cr);
    for (const secret of [
      SSH_PUBLIC_KEY.split(' ')[1] ?? 'missing',
      PASSWORD_HASH,
      'never-readable-by-the-control-plane',
      'PROXMOX_',
      'ssh-ed25519',
      'password',
    ])
      expect(text).not.toContain(secret);

    const secret = await env().kube.admin.secrets.get({
      namespace: world.namespace,
      name: `nr-${vmId}-cloudinit`,
    });
    const decoded = Object.fromEntries(
      Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
    );
    expect(decoded).toEqual({
      'user-data': ordered.cloudInit.userData,
      'vendor-data': ordered.cloudInit.vendorData,
    });
    expect(secret.metadata?.labels).toEqual({ 'vm.noderings.com/vm-id': vmId });
    expect(secret.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'vm.noderings.com/v1alpha1',
        kind: 'ProxmoxVM',
        name: `nr-${vmId}`,
        uid: cr?.metadata?.uid,
        controller: true,
      },
    ]);
  });

  it('holds a kubeconfig that reaches its operator namespace only', async () => {
    const client = new KubeClient({ kubeconfigYaml: kubeconfigs.get(world.seller.agentId) ?? '' });
    try {
      await expect(client.secrets.list('proxmox-system')).rejects.toBeInstanceOf(KubeForbiddenError);
      expect((await client.proxmoxVMs.list(world.namespace)).items).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('carries a new generation into the spec and keeps the operator’s finalizer', async () => {
    await addFinalizer(world.namespace, vmId);
    const rebootAt = new Date('2026-12-24T18:00:00.000Z');
    await changeVm(world.db, vmId, { desiredPowerState: 'Stopped', rebootRequestedAt: rebootAt });
    dispatcher.kick();
    await dispatched(world, vmId, 2);
    const cr = await crOf(world.namespace, vmId);
    expect(cr?.spec).toMatchObject({ powerState: 'Stopped', rebootRequestedAt: '2026-12-24T18:00:00.000Z' });
    expect(cr?.metadata?.generation).toBe(2);
    expect(cr?.metadata?.finalizers).toEqual([TEST_FINALIZER]);
  });

  it('writes what the operator reports on the ProxmoxVM to the observed columns, and only changes', async () => {
    const conditions = [
      {
        type: 'Ready',
        status: 'False' as const,
        reason: 'Stopping',
        message: 'stopping the guest',
        observedGeneration: 2,
        lastTransitionTime: '2026-12-24T18:00:01Z',
      },
    ];
    await env().kube.admin.proxmoxVMs.mergePatchStatus(
      { namespace: world.namespace, name: `nr-${vmId}` },
      {
        status: {
          phase: 'Running',
          powerState: 'Running',
          message: 'task running',
          observedGeneration: 2,
          conditions,
        },
      },
    );
    const row = await eventually(async () => {
      const r = await vmRow(world.db, vmId);
      expect(r).toMatchObject({
        observed_phase: 'Running',
        observed_power_state: 'Running',
        observed_message: 'stopping the guest',
        observed_conditions: conditions,
        observed_generation: 2,
      });
      return r;
    });
    expect(row.observed_at).toBeInstanceOf(Date);

    // An event that changes nothing the row shows writes nothing.
    await env().kube.admin.proxmoxVMs.mergePatch(
      { namespace: world.namespace, name: `nr-${vmId}` },
      { metadata: { annotations: { note: 'unrelated' } } },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await vmRow(world.db, vmId)).observed_at).toEqual(row.observed_at);

    await env().kube.admin.proxmoxVMs.mergePatchStatus(
      { namespace: world.namespace, name: `nr-${vmId}` },
      { status: { phase: 'Stopped', powerState: 'Stopped', conditions: [] } },
    );
    await eventually(async () => {
      expect(await vmRow(world.db, vmId)).toMatchObject({
        observed_phase: 'Stopped',
        observed_power_state: 'Stopped',
        observed_message: 'task running',
        observed_conditions: [],
      });
    });
  });

  it('deletes: the ProxmoxVM goes after the operator, then the Secret, the claim and the row', async () => {
    await changeVm(world.db, vmId, { desiredState: 'ABSENT' });
    dispatcher.kick();
    const row = await dispatched(world, vmId, 3);
    expect(row.deleted_at).toBeNull();
    const deleting = await crOf(world.namespace, vmId);
    expect(deleting?.metadata?.deletionTimestamp).toBeDefined();
    // Until the operator has deleted the guest, the VM holds its addresses and its Secret stays.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await claimStatus(world.db, vmId)).toBe('ACTIVE');
    expect(
      await env().kube.admin.secrets.find({ namespace: world.namespace, name: `nr-${vmId}-cloudinit` }),
    ).toBeDefined();

    await env().kube.admin.proxmoxVMs.mergePatch(
      { namespace: world.namespace, name: `nr-${vmId}` },
      { metadata: { finalizers: null } },
    );
    await eventually(async () => {
      const finished = await vmRow(world.db, vmId);
      expect(finished.deleted_at).toBeInstanceOf(Date);
      expect(finished).toMatchObject({ lease_owner: null, dispatch_error: '', dispatched_generation: 3 });
    });
    expect(await claimStatus(world.db, vmId)).toBe('RELEASED');
    expect(await crOf(world.namespace, vmId)).toBeUndefined();
    expect(
      await env().kube.admin.secrets.find({ namespace: world.namespace, name: `nr-${vmId}-cloudinit` }),
    ).toBeUndefined();
  });
});

describe('an order the operator gives up on', () => {
  let world: World & { namespace: string };
  let dispatcher: Dispatcher;

  beforeAll(async () => {
    world = await newAgent();
    ({ dispatcher } = startDispatcher(world));
  });
  afterAll(async () => {
    await dispatcher.stop();
  });

  it('is withdrawn, and releases its addresses, MAC, VMID and capacity once its ProxmoxVM is gone', async () => {
    const { id } = await orderVm(world);
    await dispatched(world, id, 1);
    await addFinalizer(world.namespace, id);
    const detail = "template VMID 424242 does not exist on node 'pve1'";
    await env().kube.admin.proxmoxVMs.mergePatchStatus(
      { namespace: world.namespace, name: `nr-${id}` },
      {
        status: {
          phase: 'Failed',
          message: detail,
          observedGeneration: 1,
          conditions: [
            {
              type: 'Ready',
              status: 'False',
              reason: 'TemplateNotFound',
              message: detail,
              observedGeneration: 1,
              lastTransitionTime: '2026-12-02T03:00:00Z',
            },
          ],
        },
      },
    );
    // The operator is asked to delete whatever guest it began; until it has, nothing is released.
    await eventually(async () => {
      expect((await crOf(world.namespace, id))?.metadata?.deletionTimestamp).toBeDefined();
    });
    const failed = await vmRow(world.db, id);
    expect(failed.failed_at).toBeInstanceOf(Date);
    expect(failed.failure_detail).toBe(detail);
    expect(failed.failed_node_ids).toEqual([world.seller.nodeId]);
    expect(await claimStatus(world.db, id)).toBe('ACTIVE');

    await env().kube.admin.proxmoxVMs.mergePatch(
      { namespace: world.namespace, name: `nr-${id}` },
      { metadata: { finalizers: null } },
    );
    await eventually(async () => {
      expect(await claimStatus(world.db, id)).toBe('RELEASED');
    });
    expect(await crOf(world.namespace, id)).toBeUndefined();
    expect((await vmRow(world.db, id)).failed_at).toBeInstanceOf(Date);
  });
});

describe('repairs', () => {
  let world: World & { namespace: string };
  let dispatcher: Dispatcher;
  let logger: RecordingLogger;

  beforeAll(async () => {
    world = await newAgent();
    ({ dispatcher, logger } = startDispatcher(world));
  });
  afterAll(async () => {
    await dispatcher.stop();
  });

  it('orders a VM again whose ProxmoxVM was deleted in the agent cluster', async () => {
    const { id } = await orderVm(world);
    dispatcher.kick();
    await dispatched(world, id, 1);
    const first = await crOf(world.namespace, id);
    await env().kube.admin.proxmoxVMs.delete({ namespace: world.namespace, name: `nr-${id}` });

    const second = await eventually(async () => {
      const cr = await crOf(world.namespace, id);
      expect(cr?.metadata?.uid).toBeDefined();
      expect(cr?.metadata?.uid).not.toBe(first?.metadata?.uid);
      const secret = await env().kube.admin.secrets.find({
        namespace: world.namespace,
        name: `nr-${id}-cloudinit`,
      });
      expect(secret?.metadata?.ownerReferences?.map((r) => r.uid)).toEqual([cr?.metadata?.uid]);
      return cr;
    });
    expect(second?.spec.vmId).toBe(id);
    expect((await vmRow(world.db, id)).generation).toBe(1);
    expect(logger.messages('VM ordered again: its ProxmoxVM vanished from the agent cluster')).toEqual([
      { vmId: id, agentId: world.seller.agentId },
    ]);
  });

  it('deletes cloud-init Secrets of no VM', async () => {
    const { id } = await orderVm(world);
    dispatcher.kick();
    await dispatched(world, id, 1);
    const stray = randomUUID();
    await env().kube.admin.secrets.create({
      metadata: {
        namespace: world.namespace,
        name: `nr-${stray}-cloudinit`,
        labels: { 'vm.noderings.com/vm-id': stray },
      },
      stringData: { 'user-data': '#cloud-config\n' },
    });
    await eventually(async () => {
      expect(
        await env().kube.admin.secrets.find({ namespace: world.namespace, name: `nr-${stray}-cloudinit` }),
      ).toBeUndefined();
    });
    // The live VM's Secret stays.
    expect(
      await env().kube.admin.secrets.find({ namespace: world.namespace, name: `nr-${id}-cloudinit` }),
    ).toBeDefined();
  });
});

describe('a ProxmoxVM deleted in the agent cluster while a change waits', () => {
  it('orders the VM again as soon as the old one is gone, not after its backoff', async () => {
    const world = await newAgent();
    const { id } = await orderVm(world);
    // Retries far apart: only the ProxmoxVM's disappearance can make the VM due in time.
    const { dispatcher, logger } = startDispatcher(world, { retryBaseMs: 60_000, maxBackoffMs: 120_000 });
    try {
      await dispatched(world, id, 1);
      await addFinalizer(world.namespace, id);
      const old = await crOf(world.namespace, id);
      await env().kube.admin.proxmoxVMs.delete({ namespace: world.namespace, name: `nr-${id}` });
      await changeVm(world.db, id, { desiredPowerState: 'Stopped' });
      dispatcher.kick();
      const waiting = await eventually(async () => {
        const row = await vmRow(world.db, id);
        expect(row.dispatch_attempts).toBe(1);
        return row;
      });
      expect(waiting.dispatch_error).toBe(
        `waiting for the previous ProxmoxVM nr-${id} to finish deleting before ordering it again`,
      );
      expect(waiting.next_dispatch_at.getTime()).toBeGreaterThan(Date.now() + 20_000);

      await env().kube.admin.proxmoxVMs.mergePatch(
        { namespace: world.namespace, name: `nr-${id}` },
        { metadata: { finalizers: null } },
      );
      const row = await dispatched(world, id, 2);
      expect(row).toMatchObject({ dispatch_attempts: 0, dispatch_error: '' });
      const cr = await crOf(world.namespace, id);
      expect(cr?.metadata?.uid).not.toBe(old?.metadata?.uid);
      expect(cr?.spec.powerState).toBe('Stopped');
      expect(logger.messages('VM dispatch failed')).toHaveLength(1);
    } finally {
      await dispatcher.stop();
    }
  });
});

describe('an agent cluster that cannot be reached', () => {
  it('waits with growing delays and says why, then converges once the cluster is back', async () => {
    const proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(env().kube.sim.url).port) });
    try {
      const world = await newAgent(() => `https://127.0.0.1:${String(proxy.port)}`);
      await proxy.cut();
      const { id } = await orderVm(world);
      const { dispatcher } = startDispatcher(world, { retryBaseMs: 200, maxBackoffMs: 800 });
      try {
        const firstFailure = await eventually(async () => {
          const row = await vmRow(world.db, id);
          expect(row.dispatch_attempts).toBeGreaterThanOrEqual(1);
          return row;
        });
        expect(firstFailure.dispatch_error).toMatch(
          /^waiting for agent cluster: connect ECONNREFUSED 127\.0\.0\.1:/,
        );
        expect(firstFailure.dispatched_generation).toBe(0);
        expect(firstFailure.lease_owner).toBeNull();
        const later = await eventually(async () => {
          const row = await vmRow(world.db, id);
          expect(row.dispatch_attempts).toBeGreaterThanOrEqual(firstFailure.dispatch_attempts + 2);
          return row;
        });
        expect(later.next_dispatch_at.getTime()).toBeGreaterThan(firstFailure.next_dispatch_at.getTime());
        const { users } = JSON.parse(kubeconfigs.get(world.seller.agentId) ?? '') as {
          users: { user: { token: string } }[];
        };
        expect(later.dispatch_error).not.toContain(users[0]?.user.token);

        await proxy.restore();
        const row = await dispatched(world, id, 1);
        expect(row).toMatchObject({ dispatch_attempts: 0, dispatch_error: '' });
        expect(await crOf(world.namespace, id)).toBeDefined();
      } finally {
        await dispatcher.stop();
      }
    } finally {
      await proxy.cut();
    }
  });

  it('reports the cluster’s refusal (403), and uses a new kubeconfig as soon as the agent uploads one', async () => {
    const world = await newAgent();
    const good = kubeconfigs.get(world.seller.agentId) ?? '';
    kubeconfigs.set(
      world.seller.agentId,
      kubeconfigFor(env().kube.sim, await env().kube.tokenOf(world.namespace, 'default')),
    );
    const { id } = await orderVm(world);
    const { dispatcher, logger } = startDispatcher(world);
    try {
      const refused = await eventually(async () => {
        const row = await vmRow(world.db, id);
        expect(row.dispatch_attempts).toBeGreaterThanOrEqual(1);
        return row;
      });
      expect(refused.dispatch_error).toMatch(
        /^agent cluster answered 403 Forbidden: .*cannot get resource "proxmoxvms"/,
      );

      kubeconfigs.set(world.seller.agentId, good);
      await dispatched(world, id, 1);
      expect(await crOf(world.namespace, id)).toBeDefined();
      expect(logger.messages('agent kubeconfig changed; connecting with the new one')).not.toEqual([]);
    } finally {
      await dispatcher.stop();
    }
  });
});

describe('two dispatchers on one database', () => {
  it('never both dispatch one VM', async () => {
    const world = await newAgent();
    const vms = [];
    for (let i = 0; i < 20; i++) vms.push(await orderVm(world));
    const a = startDispatcher(world, { batchSize: 2 });
    const b = startDispatcher(world, { batchSize: 2 });
    try {
      for (const vm of vms) await dispatched(world, vm.id, 1);
      await Promise.all([a.dispatcher.settled(), b.dispatcher.settled()]);
      const applied = [...a.logger.messages('VM dispatched'), ...b.logger.messages('VM dispatched')];
      expect(applied.map((e) => e.vmId).sort()).toEqual(vms.map((v) => v.id).sort());
      expect(applied.every((e) => e.recorded === 'dispatched')).toBe(true);
      // Both took part, so the leases, not the timing, kept them apart.
      expect(a.logger.messages('VM dispatched').length).toBeGreaterThan(0);
      expect(b.logger.messages('VM dispatched').length).toBeGreaterThan(0);
      const crs = (await env().kube.admin.proxmoxVMs.list(world.namespace)).items;
      expect(crs).toHaveLength(20);
      // Each was written once: one generation, and no replica's failure on the way.
      expect(crs.every((cr) => cr.metadata?.generation === 1)).toBe(true);
      const troubles = [...a.logger.entries, ...b.logger.entries].filter(
        (e) => e.level !== 'info' && e.fields.agentId === world.seller.agentId,
      );
      expect(troubles).toEqual([]);
    } finally {
      await Promise.all([a.dispatcher.stop(), b.dispatcher.stop()]);
    }
  });
});
