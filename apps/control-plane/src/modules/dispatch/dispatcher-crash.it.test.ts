import { randomUUID } from 'node:crypto';

import type { ProxmoxVM } from '@noderings/kube';
import { Informer } from '@noderings/kube';
import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';

import type { Db } from '../../db/database.js';
import { createClaimService } from '../placement/index.js';
import {
  changeVm,
  cloudInitFor,
  eventually,
  newWorld,
  openPool,
  openTestDb,
  orderVm,
  recordingLogger,
  seedSeller,
  startAgentClusterSim,
  TcpProxy,
  type AgentClusterSim,
  type TestDb,
  type World,
} from './dispatch.test-support.js';
import { Dispatcher, type DispatcherOptions } from './dispatcher.js';
import { cloudInitSecretOf, FIELD_MANAGER, proxmoxVmOf } from './vm-order.js';

// DESIGN §4 invariant 4: dispatchers killed at random moments while VMs are ordered, changed and deleted
// leave nothing a clean dispatcher cannot finish: one ProxmoxVM per live VM, none for deleted ones, no
// orphan Secret, every deleted VM's claim released. A kill cuts the process's database and agent-cluster
// connections at once (each replica reaches both through proxies of its own), so whatever it had sent is
// in, and nothing more arrives. `CRASH_SEED=N` replays the workload and the moments of the kills.

const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 100_000);
const ROUNDS = 10;
const ORDERS_PER_ROUND = 5;
const OPTIONS: DispatcherOptions = {
  pollIntervalMs: 50,
  leaseMs: 1_000,
  retryBaseMs: 50,
  maxBackoffMs: 400,
  resyncIntervalMs: 200,
  batchSize: 4,
};
const OPERATOR_FINALIZER = 'vm.noderings.com/test-operator';
const CONVERGE_MS = 45_000;

let testDb: TestDb | undefined;
let kube: AgentClusterSim | undefined;
let operator: Informer<ProxmoxVM> | undefined;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  testDb = await openTestDb();
  kube = await startAgentClusterSim();
});

afterAll(async () => {
  try {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await operator?.stop();
    await kube?.close();
  } finally {
    await testDb?.close();
  }
});

/** A deterministic generator of numbers in [0, 1) (xorshift32). */
function randomSource(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 2 ** 32;
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What the operator does that matters here: a finalizer on every new ProxmoxVM and a status, and the
 * finalizer taken off a while after a deletion asks (the guest's deletion).
 */
function startFakeOperator(sim: AgentClusterSim, random: () => number): Informer<ProxmoxVM> {
  const client = sim.admin.proxmoxVMs;
  const informer = new Informer(client, { labelSelector: 'vm.noderings.com/vm-id' });
  const ignore = (): undefined => undefined;
  const handle = (vm: ProxmoxVM): void => {
    const ref = { namespace: vm.metadata?.namespace ?? '', name: vm.metadata?.name ?? '' };
    const held = vm.metadata?.finalizers?.includes(OPERATOR_FINALIZER) === true;
    if (vm.metadata?.deletionTimestamp !== undefined) {
      if (held)
        setTimeout(() => {
          client.mergePatch(ref, { metadata: { finalizers: null } }).then(ignore, ignore);
        }, random() * 150);
      return;
    }
    if (!held)
      client
        .mergePatch(ref, { metadata: { finalizers: [OPERATOR_FINALIZER] } })
        .then(() =>
          client.mergePatchStatus(ref, {
            status: { phase: 'Running', powerState: vm.spec.powerState ?? 'Running' },
          }),
        )
        .then(ignore, ignore);
  };
  informer.addHandler({
    onAdd: handle,
    onUpdate: (_old, vm) => {
      handle(vm);
    },
  });
  informer.start();
  return informer;
}

interface Replica {
  dispatcher: Dispatcher;
  crash(): Promise<void>;
}

/** A dispatcher as a process of its own: its own connection pool and clients, reaching out through proxies. */
async function startReplica(
  sim: AgentClusterSim,
  url: string,
  secretBox: World['secretBox'],
  kubeconfigs: Map<string, string>,
): Promise<Replica> {
  const database = new URL(url);
  const dbProxy = await TcpProxy.start({ host: database.hostname, port: Number(database.port || 5432) });
  const kubeProxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(sim.sim.url).port) });
  database.port = String(dbProxy.port);
  const db = openPool(database.toString(), 4);
  const claims = createClaimService(db);
  const through = `https://127.0.0.1:${String(kubeProxy.port)}`;
  const dispatcher = new Dispatcher({
    allowPrivateDestinations: true,
    db,
    secretBox,
    kubeconfigOf: (agentId) => {
      const kubeconfig = kubeconfigs.get(agentId);
      if (kubeconfig === undefined) return Promise.reject(new Error(`no kubeconfig for ${agentId}`));
      const parsed = JSON.parse(kubeconfig) as { clusters: { cluster: { server: string } }[] };
      for (const c of parsed.clusters) c.cluster.server = through;
      return Promise.resolve(JSON.stringify(parsed));
    },
    releaseClaim: (claimId) => claims.release(claimId),
    now: () => new Date(),
    logger: recordingLogger(),
    owner: `replica-${randomUUID()}`,
    options: OPTIONS,
  });
  dispatcher.start();
  let crashed = false;
  const crash = async (): Promise<void> => {
    if (crashed) return;
    crashed = true;
    await Promise.all([dbProxy.cut(), kubeProxy.cut()]);
    // Only clears its timers now: with both proxies gone, nothing it still tries can reach anything.
    await dispatcher.stop();
    await Promise.race([db.destroy(), sleep(2_000)]);
  };
  cleanups.push(crash);
  return { dispatcher, crash };
}

it(`converges after dispatchers are killed at random moments (seed ${String(SEED)})`, async () => {
  if (testDb === undefined || kube === undefined) throw new Error('not started');
  const { db, url } = testDb;
  const sim = kube;
  const random = randomSource(SEED);
  const between = (min: number, max: number): number => Math.floor(min + random() * (max - min));
  operator = startFakeOperator(sim, random);

  const kubeconfigs = new Map<string, string>();
  const worlds: World[] = [];
  const first = newWorld(db, await seedSeller(db));
  for (const seller of [first.seller, await seedSeller(db)]) {
    kubeconfigs.set(seller.agentId, await sim.peerAgent(seller.agentId));
    // One key for the whole control plane, as every replica shares NR_SECRET_KEY.
    worlds.push({ ...first, seller });
  }

  const live: string[] = [];
  /** The API's side: orders, power changes and deletions, at random moments while replicas run and die. */
  const act = async (): Promise<void> => {
    for (let i = 0; i < ORDERS_PER_ROUND; i++) {
      const world = worlds[between(0, worlds.length)] ?? first;
      live.push((await orderVm(world)).id);
      await sleep(between(0, 60));
    }
    if (live.length > 2 && random() < 0.8) {
      const [deleted] = live.splice(between(0, live.length), 1);
      if (deleted !== undefined) await changeVm(db, deleted, { desiredState: 'ABSENT' });
    }
    const changed = live[between(0, live.length)];
    if (changed !== undefined)
      await changeVm(db, changed, { desiredPowerState: random() < 0.5 ? 'Stopped' : 'Running' });
  };

  for (let round = 0; round < ROUNDS; round++) {
    const replicas = await Promise.all(
      Array.from({ length: between(1, 3) }, () => startReplica(sim, url, first.secretBox, kubeconfigs)),
    );
    const acting = act();
    await sleep(between(20, 400));
    // Replicas die one after another, at their own moments.
    for (const replica of replicas) {
      await replica.crash();
      await sleep(between(0, 100));
    }
    await acting;
  }

  const clean = await startReplica(sim, url, first.secretBox, kubeconfigs);
  try {
    await eventually(() => expectConverged(db, sim, worlds), CONVERGE_MS, 250);
  } finally {
    await clean.crash();
  }
});

async function expectConverged(db: Db, sim: AgentClusterSim, worlds: readonly World[]): Promise<void> {
  const rows = await db
    .selectFrom('virtual_machines as v')
    .innerJoin('vm_claims as c', 'c.id', 'v.id')
    .select([
      'v.id',
      'v.agent_id',
      'v.desired_state',
      'v.desired_power_state',
      'v.generation',
      'v.dispatched_generation',
      'v.deleted_at',
      'v.lease_owner',
      'v.observed_phase',
      'c.status as claim_status',
    ])
    .execute();
  expect(rows.length).toBe(ROUNDS * ORDERS_PER_ROUND);
  const present = rows.filter((r) => r.desired_state === 'PRESENT');
  expect(present.length).toBeLessThan(rows.length);
  for (const row of rows) {
    expect(row.dispatched_generation, row.id).toBe(row.generation);
    expect(row.lease_owner, row.id).toBeNull();
    expect(row.deleted_at === null, row.id).toBe(row.desired_state === 'PRESENT');
    expect(row.claim_status, row.id).toBe(row.desired_state === 'PRESENT' ? 'ACTIVE' : 'RELEASED');
    if (row.desired_state === 'PRESENT') expect(row.observed_phase, row.id).toBe('Running');
  }
  const activeAddresses = await db
    .selectFrom('ip_allocations')
    .select('claim_id')
    .where('status', '=', 'IP_ALLOCATION_STATUS_ACTIVE')
    .execute();
  expect(activeAddresses.map((a) => a.claim_id).sort()).toEqual(present.map((r) => r.id).sort());

  for (const world of worlds) {
    const namespace = `${world.seller.agentId}-operator`;
    const wanted = present.filter((r) => r.agent_id === world.seller.agentId);
    const crs = (await sim.admin.proxmoxVMs.list(namespace)).items;
    expect(crs.map((cr) => cr.metadata?.name).sort()).toEqual(wanted.map((r) => `nr-${r.id}`).sort());
    const secrets = (await sim.admin.secrets.list(namespace)).items.filter(
      (s) => s.metadata?.name?.startsWith('nr-') === true,
    );
    expect(secrets.map((s) => s.metadata?.name).sort()).toEqual(
      wanted.map((r) => `nr-${r.id}-cloudinit`).sort(),
    );
    for (const row of wanted) {
      const cr = crs.find((c) => c.metadata?.name === `nr-${row.id}`);
      expect(cr?.metadata?.deletionTimestamp, row.id).toBeUndefined();
      expect(cr?.spec.powerState, row.id).toBe(row.desired_power_state);
      const secret = secrets.find((s) => s.metadata?.name === `nr-${row.id}-cloudinit`);
      expect(
        secret?.metadata?.ownerReferences?.map((o) => o.uid),
        row.id,
      ).toEqual([cr?.metadata?.uid]);
    }
  }
}

it('finishes what a dispatcher killed between any two of its steps left behind', async () => {
  if (testDb === undefined || kube === undefined) throw new Error('not started');
  const { db } = testDb;
  const { admin } = kube;
  const world = newWorld(db, await seedSeller(db));
  const namespace = `${world.seller.agentId}-operator`;
  const kubeconfig = await kube.peerAgent(world.seller.agentId);
  const apply = { fieldManager: FIELD_MANAGER, force: true };
  const leasedByTheDead = (until: RawBuilder<Date>) => ({ lease_owner: 'dead-replica', lease_until: until });
  const row = (id: string) => db.updateTable('virtual_machines').where('id', '=', id);
  const wanted = async (id: string) => {
    const vm = await db
      .selectFrom('virtual_machines')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return {
      id,
      agentId: vm.agent_id,
      desiredState: vm.desired_state,
      desiredPowerState: vm.desired_power_state,
      rebootRequestedAt: vm.reboot_requested_at,
      tags: vm.tags,
      spec: vm.spec,
      cloudInitCiphertext: vm.cloud_init_ciphertext,
      generation: vm.generation,
      dispatchAttempts: vm.dispatch_attempts,
      reinstallPending: vm.reinstall_generation > vm.reinstalled_generation,
      reinstallGeneration: vm.reinstall_generation,
      mustMove: false,
    };
  };
  /** What `applyOrder` writes, up to (and without) the Secret's owner. */
  const applyUnowned = async (id: string, withVm: boolean): Promise<ProxmoxVM | undefined> => {
    const vm = await wanted(id);
    await admin.secrets.apply(cloudInitSecretOf(id, namespace, cloudInitFor(id), undefined), apply);
    return withVm ? admin.proxmoxVMs.apply(proxmoxVmOf(vm, namespace), apply) : undefined;
  };
  const expired = sql<Date>`now() - interval '1 second'`;

  // Killed after the Secret, before the ProxmoxVM.
  const secretOnly = (await orderVm(world)).id;
  await applyUnowned(secretOnly, false);
  await row(secretOnly).set(leasedByTheDead(expired)).execute();
  // Killed after the ProxmoxVM, before recording it.
  const unrecorded = (await orderVm(world)).id;
  const unrecordedVm = await applyUnowned(unrecorded, true);
  await row(unrecorded).set(leasedByTheDead(expired)).execute();
  // Killed right after leasing: its lease still runs.
  const leased = (await orderVm(world)).id;
  await row(leased)
    .set(leasedByTheDead(sql<Date>`now() + interval '2 seconds'`))
    .execute();
  // Killed after the ProxmoxVM's deletion, before anything was recorded.
  const deleting = (await orderVm(world)).id;
  await applyUnowned(deleting, false);
  await row(deleting).set({ dispatched_generation: 1 }).execute();
  await changeVm(db, deleting, { desiredState: 'ABSENT' });
  // Killed after releasing the claim, before setting deleted_at.
  const released = (await orderVm(world)).id;
  await row(released).set({ desired_state: 'ABSENT', generation: 2, dispatched_generation: 2 }).execute();
  await world.claims.release(released);
  // Finished, and then a replica whose lease had run out wrote its order again.
  const late = (await orderVm(world)).id;
  await applyUnowned(late, true);
  await world.claims.release(late);
  await row(late)
    .set({ desired_state: 'ABSENT', generation: 2, dispatched_generation: 2, deleted_at: new Date() })
    .execute();
  // Its deletion was dispatched, and then the same late write put the ProxmoxVM back.
  const back = (await orderVm(world)).id;
  await applyUnowned(back, true);
  await row(back).set({ desired_state: 'ABSENT', generation: 2, dispatched_generation: 2 }).execute();

  const logger = recordingLogger();
  const dispatcher = new Dispatcher({
    allowPrivateDestinations: true,
    db,
    secretBox: world.secretBox,
    kubeconfigOf: () => Promise.resolve(kubeconfig),
    releaseClaim: (claimId) => world.claims.release(claimId),
    now: () => new Date(),
    logger,
    owner: `replica-${randomUUID()}`,
    options: OPTIONS,
  });
  cleanups.push(() => dispatcher.stop());
  dispatcher.start();

  const crOf = (id: string) => admin.proxmoxVMs.find({ namespace, name: `nr-${id}` });
  const secretOf = (id: string) => admin.secrets.find({ namespace, name: `nr-${id}-cloudinit` });
  const stateOf = (id: string) =>
    db
      .selectFrom('virtual_machines as v')
      .innerJoin('vm_claims as c', 'c.id', 'v.id')
      .select(['v.generation', 'v.dispatched_generation', 'v.deleted_at', 'v.lease_owner', 'c.status'])
      .where('v.id', '=', id)
      .executeTakeFirstOrThrow();

  await sleep(700);
  expect(await crOf(leased)).toBeUndefined();
  expect((await stateOf(leased)).lease_owner).toBe('dead-replica');

  await eventually(async () => {
    for (const id of [secretOnly, unrecorded, leased]) {
      const cr = await crOf(id);
      expect((await stateOf(id)).dispatched_generation, id).toBe(1);
      expect(cr?.metadata?.generation, id).toBe(1);
      expect(
        (await secretOf(id))?.metadata?.ownerReferences?.map((o) => o.uid),
        id,
      ).toEqual([cr?.metadata?.uid]);
    }
    for (const id of [deleting, released, late, back]) {
      const state = await stateOf(id);
      expect(state.deleted_at, id).toBeInstanceOf(Date);
      expect(state.status, id).toBe('RELEASED');
      expect(state.dispatched_generation, id).toBe(state.generation);
      expect(await crOf(id), id).toBeUndefined();
      expect(await secretOf(id), id).toBeUndefined();
    }
  }, CONVERGE_MS);
  // The ProxmoxVM written before the kill was the one kept, not written again.
  expect((await crOf(unrecorded))?.metadata?.uid).toBe(unrecordedVm?.metadata?.uid);
  expect(logger.messages('ProxmoxVM of a deleted VM deleted again')).toEqual([{ vmId: late }]);
});
