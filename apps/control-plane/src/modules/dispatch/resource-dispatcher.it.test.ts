import { randomBytes, randomUUID } from 'node:crypto';

import type { VMBackup } from '@noderings/kube';
import { CRD_API_VERSION } from '@noderings/kube';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SecretBox } from '../../crypto/secret-box.js';
import { consoleSecretAssociatedData } from '../vm-console/index.js';
import {
  changeVm,
  eventually,
  newWorld,
  openTestDb,
  orderVm,
  recordingLogger,
  seedSeller,
  startAgentClusterSim,
  vmRow,
  type AgentClusterSim,
  type RecordingLogger,
  type TestDb,
  type World,
} from './dispatch.test-support.js';
import { Dispatcher } from './dispatcher.js';

// A VM's snapshots, backups and console sessions on their way to kube-sim and back. The operator is
// played by the test: it writes status and holds objects with a finalizer, as the real one does.

const FAST = {
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
/** Every dispatcher here works on the one database, as replicas do: they share the key, as replicas must. */
const secretBox = new SecretBox(randomBytes(32));

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

interface Agent extends World {
  readonly namespace: string;
  readonly dispatcher: Dispatcher;
  readonly logger: RecordingLogger;
}

/** A seller of its own, peered, with a dispatcher running. */
async function newAgent(): Promise<Agent> {
  const { db, kube } = env();
  const seller = await seedSeller(db);
  kubeconfigs.set(seller.agentId, await kube.peerAgent(seller.agentId));
  const world = { ...newWorld(db, seller), secretBox };
  const logger = recordingLogger();
  const dispatcher = new Dispatcher({
    allowPrivateDestinations: true,
    db,
    secretBox: world.secretBox,
    kubeconfigOf: (agentId) => Promise.resolve(kubeconfigs.get(agentId) ?? ''),
    releaseClaim: (claimId) => world.claims.release(claimId),
    now: () => new Date(),
    logger,
    owner: `test-${randomUUID()}`,
    options: FAST,
  });
  running.push(dispatcher);
  dispatcher.start();
  return { ...world, namespace: `${seller.agentId}-operator`, dispatcher, logger };
}

/** A VM ordered and in the cluster. */
async function runningVm(agent: Agent): Promise<string> {
  const { id } = await orderVm(agent);
  agent.dispatcher.kick();
  await eventually(async () => {
    expect((await vmRow(agent.db, id)).dispatched_generation).toBe(1);
  });
  return id;
}

async function insertSnapshot(
  agent: Agent,
  vmId: string,
  description = '',
): Promise<{ id: string; name: string }> {
  const id = randomUUID();
  const name = `nr-${vmId}-snap-${id.slice(0, 8)}`;
  await agent.db
    .insertInto('vm_snapshots')
    .values({
      id,
      vm_id: vmId,
      client_organization_id: agent.seller.clientOrganizationId,
      agent_id: agent.seller.agentId,
      object_name: name,
      snapshot_name: `snap-${id.slice(0, 8)}`,
      description,
      updated_at: new Date(),
    })
    .execute();
  agent.dispatcher.kick();
  return { id, name };
}

function snapshotRow(agent: Agent, id: string) {
  return agent.db.selectFrom('vm_snapshots').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** What the API does on a change of a resource row: a new generation, due at once. */
async function bump(
  agent: Agent,
  table: 'vm_snapshots' | 'vm_backups' | 'vm_console_sessions',
  id: string,
  change: Record<string, unknown>,
): Promise<void> {
  await agent.db
    .updateTable(table)
    .set((eb) => ({
      ...change,
      generation: eb('generation', '+', 1),
      next_dispatch_at: sql<Date>`now()`,
      dispatch_attempts: 0,
    }))
    .where('id', '=', id)
    .execute();
  agent.dispatcher.kick();
}

async function holdWithFinalizer(
  client: AgentClusterSim['admin']['vmSnapshots'] | AgentClusterSim['admin']['vmBackups'],
  namespace: string,
  name: string,
): Promise<void> {
  await client.mergePatch({ namespace, name }, { metadata: { finalizers: [TEST_FINALIZER] } });
}

/** What the operator's schedule makes: labelled, owned by the ProxmoxVM. */
async function scheduledBackupOf(agent: Agent, vmId: string, slot: string): Promise<VMBackup> {
  const { admin } = env().kube;
  const vm = await admin.proxmoxVMs.get({ namespace: agent.namespace, name: `nr-${vmId}` });
  return admin.vmBackups.create({
    apiVersion: CRD_API_VERSION,
    kind: 'VMBackup',
    metadata: {
      namespace: agent.namespace,
      name: `nr-${vmId}-${slot}`,
      labels: { 'vm.noderings.com/vm-ref': `nr-${vmId}`, 'vm.noderings.com/scheduled': 'true' },
      ownerReferences: [
        {
          apiVersion: CRD_API_VERSION,
          kind: 'ProxmoxVM',
          name: `nr-${vmId}`,
          uid: vm.metadata?.uid ?? '',
          controller: true,
        },
      ],
    },
    spec: { vmRef: `nr-${vmId}`, storage: 'local', compression: 'zstd', mode: 'snapshot' },
  });
}

async function insertSessionOf(agent: Agent, vmId: string): Promise<{ id: string; name: string }> {
  const id = randomUUID();
  const name = `nr-${vmId}-vnc-${id.slice(0, 8)}`;
  await agent.db
    .insertInto('vm_console_sessions')
    .values({
      id,
      vm_id: vmId,
      client_organization_id: agent.seller.clientOrganizationId,
      agent_id: agent.seller.agentId,
      object_name: name,
      token_hash: Buffer.alloc(32),
      updated_at: new Date(),
    })
    .execute();
  agent.dispatcher.kick();
  return { id, name };
}

describe('snapshots', () => {
  let agent: Agent;
  let vmId: string;
  beforeAll(async () => {
    agent = await newAgent();
    vmId = await runningVm(agent);
  });

  it('become a VMSnapshot owned by the ProxmoxVM, and what the operator reports comes back', async () => {
    const { admin } = env().kube;
    const { id, name } = await insertSnapshot(agent, vmId, 'before the upgrade');
    const object = await eventually(async () => {
      const found = await admin.vmSnapshots.find({ namespace: agent.namespace, name });
      expect(found).toBeDefined();
      return found;
    });
    const vm = await admin.proxmoxVMs.get({ namespace: agent.namespace, name: `nr-${vmId}` });
    expect(object?.spec).toEqual({
      vmRef: `nr-${vmId}`,
      snapshotName: `snap-${id.slice(0, 8)}`,
      description: 'before the upgrade',
    });
    expect(object?.metadata?.labels).toEqual({ 'vm.noderings.com/vm-id': vmId });
    expect(object?.metadata?.ownerReferences).toEqual([
      {
        apiVersion: CRD_API_VERSION,
        kind: 'ProxmoxVM',
        name: `nr-${vmId}`,
        uid: vm.metadata?.uid,
        controller: true,
      },
    ]);
    await eventually(async () => {
      expect((await snapshotRow(agent, id)).dispatched_generation).toBe(1);
    });

    await admin.vmSnapshots.mergePatchStatus(
      { namespace: agent.namespace, name },
      { status: { phase: 'Ready' } },
    );
    await eventually(async () => {
      expect(await snapshotRow(agent, id)).toMatchObject({ observed_phase: 'Ready', observed_message: '' });
    });

    const requested = new Date('2026-11-30T12:00:00.123Z');
    await bump(agent, 'vm_snapshots', id, { rollback_requested_at: requested });
    await eventually(async () => {
      const now = await admin.vmSnapshots.get({ namespace: agent.namespace, name });
      expect(now.spec.rollbackRequestedAt).toBe(requested.toISOString());
    });
    await admin.vmSnapshots.mergePatchStatus(
      { namespace: agent.namespace, name },
      { status: { phase: 'Ready', lastRollbackAt: requested.toISOString() } },
    );
    await eventually(async () => {
      expect((await snapshotRow(agent, id)).observed_last_rollback_at).toEqual(requested);
    });
  });

  it('are deleted through the operator’s finalizer, then finished', async () => {
    const { admin } = env().kube;
    const { id, name } = await insertSnapshot(agent, vmId);
    await eventually(async () => {
      expect((await snapshotRow(agent, id)).dispatched_generation).toBe(1);
    });
    await holdWithFinalizer(admin.vmSnapshots, agent.namespace, name);
    await bump(agent, 'vm_snapshots', id, { desired_state: 'ABSENT' });
    await eventually(async () => {
      const now = await admin.vmSnapshots.get({ namespace: agent.namespace, name });
      expect(now.metadata?.deletionTimestamp).toBeDefined();
      expect((await snapshotRow(agent, id)).dispatched_generation).toBe(2);
    });
    expect((await snapshotRow(agent, id)).deleted_at).toBeNull();

    await admin.vmSnapshots.mergePatch(
      { namespace: agent.namespace, name },
      { metadata: { finalizers: null } },
    );
    await eventually(async () => {
      expect((await snapshotRow(agent, id)).deleted_at).toBeInstanceOf(Date);
    });
  });

  it('that vanish from the cluster are finished, never made again, and a late copy is deleted', async () => {
    const { admin } = env().kube;
    const { id, name } = await insertSnapshot(agent, vmId);
    await eventually(async () => {
      expect((await snapshotRow(agent, id)).dispatched_generation).toBe(1);
    });
    await admin.vmSnapshots.delete({ namespace: agent.namespace, name });
    await eventually(async () => {
      expect(await snapshotRow(agent, id)).toMatchObject({
        desired_state: 'ABSENT',
        deleted_at: expect.any(Date) as unknown,
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await admin.vmSnapshots.find({ namespace: agent.namespace, name })).toBeUndefined();

    await admin.vmSnapshots.create({
      apiVersion: CRD_API_VERSION,
      kind: 'VMSnapshot',
      metadata: { namespace: agent.namespace, name, labels: { 'vm.noderings.com/vm-id': vmId } },
      spec: { vmRef: `nr-${vmId}`, snapshotName: 'late' },
    });
    await eventually(async () => {
      expect(await admin.vmSnapshots.find({ namespace: agent.namespace, name })).toBeUndefined();
    });
  });

  it('wait for their VM’s ProxmoxVM and say so', async () => {
    const waiting = await newAgent();
    const { admin } = env().kube;
    const vm = await runningVm(waiting);
    // The VM's ProxmoxVM on its way out, held by a finalizer: neither there for a snapshot to be owned by,
    // nor gone for status sync to dispatch again, for as long as the test holds it.
    const ref = { namespace: waiting.namespace, name: `nr-${vm}` };
    await admin.proxmoxVMs.mergePatch(ref, { metadata: { finalizers: [TEST_FINALIZER] } });
    await admin.proxmoxVMs.delete(ref);
    const { id } = await insertSnapshot(waiting, vm);
    await eventually(async () => {
      const row = await snapshotRow(waiting, id);
      expect(row.dispatch_error).toBe(`waiting for the VM's ProxmoxVM nr-${vm} to be in the agent cluster`);
      expect(row.dispatch_attempts).toBeGreaterThan(1);
    });
    // Once it is gone, status sync dispatches the VM again, and the snapshot follows it.
    await admin.proxmoxVMs.mergePatch(ref, { metadata: { finalizers: null } });
    await eventually(async () => {
      expect(await snapshotRow(waiting, id)).toMatchObject({ dispatched_generation: 1, dispatch_error: '' });
    });
  });
});

describe('backups', () => {
  let agent: Agent;
  let vmId: string;
  let addonId: string;
  beforeAll(async () => {
    agent = await newAgent();
    vmId = await runningVm(agent);
    const addon = await agent.db
      .insertInto('addons')
      .values({
        organization_id: agent.seller.providerOrganizationId,
        code: `BACKUP-${randomUUID().slice(0, 8)}`,
        name: 'Daily backups',
        addon_type: 'ADDON_TYPE_BACKUP',
        pricing_kind: 'fixed',
        currency: 'EUR',
        unit_amount: '1.000000',
        percentage_value: null,
        zero_base_fallback_amount: null,
        auto_attach: false,
        is_public: true,
        backup_schedule: '0 3 * * *',
        backup_retention: 7,
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    addonId = addon.id;
    await agent.db.insertInto('vm_backup_policies').values({ vm_id: vmId, addon_id: addonId }).execute();
  });

  const scheduledBackup = (slot: string) => scheduledBackupOf(agent, vmId, slot);

  function backupRow(name: string) {
    return agent.db
      .selectFrom('vm_backups')
      .selectAll()
      .where('object_name', '=', name)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
  }

  it('are found as the operator makes them, with the addon of the policy and what it reports', async () => {
    const { admin } = env().kube;
    const backup = await scheduledBackup('20261130-0300');
    const name = backup.metadata?.name ?? '';
    const row = await eventually(() => backupRow(name));
    expect(row).toMatchObject({
      vm_id: vmId,
      client_organization_id: agent.seller.clientOrganizationId,
      addon_id: addonId,
      object_uid: backup.metadata?.uid,
      generation: 1,
      dispatched_generation: 1,
      removal: null,
    });
    expect(row.created_at.toISOString()).toBe(
      new Date(backup.metadata?.creationTimestamp ?? '').toISOString(),
    );

    await admin.vmBackups.mergePatchStatus(
      { namespace: agent.namespace, name },
      {
        status: {
          phase: 'Completed',
          volid: 'local:backup/vzdump-qemu-1001-2026_11_30-03_00_00.vma.zst',
          sizeBytes: 123_456_789,
          finishedAt: '2026-11-30T03:01:00Z',
        },
      },
    );
    await eventually(async () => {
      const now = await backupRow(name);
      expect(now).toMatchObject({
        observed_phase: 'Completed',
        observed_volid: 'local:backup/vzdump-qemu-1001-2026_11_30-03_00_00.vma.zst',
        observed_finished_at: new Date('2026-11-30T03:01:00Z'),
      });
      expect(Number(now.observed_size_bytes)).toBe(123_456_789);
    });
  });

  it('carry a restore request into the operator’s object, and its outcome back', async () => {
    const { admin } = env().kube;
    const backup = await scheduledBackup('20261201-0300');
    const name = backup.metadata?.name ?? '';
    const row = await eventually(() => backupRow(name));
    const requested = new Date('2026-12-01T09:00:00.000Z');
    await bump(agent, 'vm_backups', row.id, { restore_requested_at: requested, restore_start: false });
    await eventually(async () => {
      const now = await admin.vmBackups.get({ namespace: agent.namespace, name });
      expect(now.spec).toMatchObject({
        vmRef: `nr-${vmId}`,
        storage: 'local',
        restore: { requestedAt: requested.toISOString(), start: false },
      });
      expect((await backupRow(name)).dispatched_generation).toBe(2);
    });
    await admin.vmBackups.mergePatchStatus(
      { namespace: agent.namespace, name },
      {
        status: {
          phase: 'Completed',
          restore: { phase: 'Completed', requestedAt: requested.toISOString(), message: 'restored' },
        },
      },
    );
    await eventually(async () => {
      const now = await backupRow(name);
      expect(now).toMatchObject({
        observed_restore_phase: 'Completed',
        observed_restore_requested_at: requested,
        observed_restore_message: 'restored',
      });
      expect(now.restored_at).toBeInstanceOf(Date);
    });
  });

  it('are deleted on request (DELETED), and those the schedule prunes are EXPIRED', async () => {
    const { admin } = env().kube;
    const deleted = (await scheduledBackup('20261202-0300')).metadata?.name ?? '';
    const pruned = (await scheduledBackup('20261203-0300')).metadata?.name ?? '';
    const row = await eventually(() => backupRow(deleted));
    await eventually(() => backupRow(pruned));
    await holdWithFinalizer(admin.vmBackups, agent.namespace, deleted);
    await bump(agent, 'vm_backups', row.id, { desired_state: 'ABSENT' });
    await eventually(async () => {
      const now = await admin.vmBackups.get({ namespace: agent.namespace, name: deleted });
      expect(now.metadata?.deletionTimestamp).toBeDefined();
    });
    await admin.vmBackups.mergePatch(
      { namespace: agent.namespace, name: deleted },
      { metadata: { finalizers: null } },
    );
    await admin.vmBackups.delete({ namespace: agent.namespace, name: pruned });
    await eventually(async () => {
      expect(await backupRow(deleted)).toMatchObject({
        removal: 'DELETED',
        deleted_at: expect.any(Date) as unknown,
      });
      expect(await backupRow(pruned)).toMatchObject({
        removal: 'EXPIRED',
        deleted_at: expect.any(Date) as unknown,
      });
    });
  });

  it('puts the VM’s backup policy in its ProxmoxVM', async () => {
    const policy = { schedule: '0 3 * * *', retention: 7, storage: 'local', compression: 'zstd' };
    await agent.db
      .updateTable('virtual_machines')
      .set({ spec: sql<string>`spec || ${JSON.stringify({ backupPolicy: policy })}::jsonb` })
      .where('id', '=', vmId)
      .execute();
    await changeVm(agent.db, vmId, {});
    agent.dispatcher.kick();
    await eventually(async () => {
      const vm = await env().kube.admin.proxmoxVMs.get({ namespace: agent.namespace, name: `nr-${vmId}` });
      expect(vm.spec.backupPolicy).toEqual(policy);
    });
  });
});

describe('console sessions', () => {
  let agent: Agent;
  let vmId: string;
  beforeAll(async () => {
    agent = await newAgent();
    vmId = await runningVm(agent);
  });

  const insertSession = () => insertSessionOf(agent, vmId);

  function sessionRow(id: string) {
    return agent.db
      .selectFrom('vm_console_sessions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  }

  it('become a VNCRequest whose answer is sealed on the row, never logged, and cleared once expired', async () => {
    const { admin } = env().kube;
    const { id, name } = await insertSession();
    const request = await eventually(async () => {
      const found = await admin.vncRequests.find({ namespace: agent.namespace, name });
      expect(found).toBeDefined();
      return found;
    });
    expect(request?.spec).toEqual({ vmRef: `nr-${vmId}` });
    expect(request?.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'ProxmoxVM', name: `nr-${vmId}` });

    const password = 'Xy7#pq2!';
    const ticket = `${password}:PVEVNC:6789ABCD::c2lnbmF0dXJl`;
    const expiresAt = new Date(Date.now() + 40_000);
    await admin.vncRequests.mergePatchStatus(
      { namespace: agent.namespace, name },
      {
        status: {
          phase: 'Ready',
          node: 'pve1',
          vmid: 1042,
          port: 5901,
          ticket,
          password,
          expiresAt: expiresAt.toISOString(),
        },
      },
    );
    const answered = await eventually(async () => {
      const row = await sessionRow(id);
      expect(row.password_ciphertext).not.toBeNull();
      return row;
    });
    expect(answered).toMatchObject({
      observed_phase: 'Ready',
      observed_node: 'pve1',
      observed_vmid: 1042,
      observed_port: 5901,
    });
    expect(answered.expires_at?.toISOString()).toBe(expiresAt.toISOString());
    expect(
      agent.secretBox.open(answered.password_ciphertext ?? '', consoleSecretAssociatedData(id, 'password')),
    ).toBe(password);
    expect(
      agent.secretBox.open(answered.ticket_ciphertext ?? '', consoleSecretAssociatedData(id, 'ticket')),
    ).toBe(ticket);
    expect(answered.password_ciphertext).not.toContain(password);
    expect(JSON.stringify(agent.logger.entries)).not.toContain(password);

    await admin.vncRequests.mergePatchStatus(
      { namespace: agent.namespace, name },
      { status: { phase: 'Expired', ticket: null, password: null, message: 'the VNC ticket expired' } },
    );
    await eventually(async () => {
      expect(await sessionRow(id)).toMatchObject({
        observed_phase: 'Expired',
        observed_message: 'the VNC ticket expired',
        ticket_ciphertext: null,
        password_ciphertext: null,
      });
    });
  });

  it('are withdrawn by the sweep once long expired, and finished when their VNCRequest is gone', async () => {
    const { admin } = env().kube;
    const { id, name } = await insertSession();
    await eventually(async () => {
      expect((await sessionRow(id)).dispatched_generation).toBe(1);
    });
    // An hour after its ticket: the operator's own collection has not come yet.
    const expiresAt = new Date(Date.now() - 60 * 60_000).toISOString();
    await admin.vncRequests.mergePatchStatus(
      { namespace: agent.namespace, name },
      { status: { phase: 'Expired', expiresAt, message: 'the VNC ticket expired' } },
    );
    await eventually(async () => {
      expect(await admin.vncRequests.find({ namespace: agent.namespace, name })).toBeUndefined();
      expect(await sessionRow(id)).toMatchObject({
        desired_state: 'ABSENT',
        deleted_at: expect.any(Date) as unknown,
      });
    });
  });
});

it('finishes a deleted VM’s snapshots, backups and console sessions with it, and leaves nothing in the cluster', async () => {
  const agent = await newAgent();
  const { admin } = env().kube;
  const { namespace } = agent;
  const vmId = await runningVm(agent);
  const snapshot = await insertSnapshot(agent, vmId);
  const session = await insertSessionOf(agent, vmId);
  const backup = (await scheduledBackupOf(agent, vmId, '20261204-0300')).metadata?.name ?? '';
  await eventually(async () => {
    expect((await snapshotRow(agent, snapshot.id)).dispatched_generation).toBe(1);
    expect(await admin.vncRequests.find({ namespace, name: session.name })).toBeDefined();
  });
  const backupRow = () =>
    agent.db.selectFrom('vm_backups').selectAll().where('object_name', '=', backup).executeTakeFirstOrThrow();
  await eventually(backupRow);

  await changeVm(agent.db, vmId, { desiredState: 'ABSENT' });
  agent.dispatcher.kick();
  await eventually(async () => {
    expect((await vmRow(agent.db, vmId)).deleted_at).toBeInstanceOf(Date);
    expect((await snapshotRow(agent, snapshot.id)).deleted_at).toBeInstanceOf(Date);
    expect(await backupRow()).toMatchObject({ removal: 'DELETED', deleted_at: expect.any(Date) as unknown });
    const consoleRow = await agent.db
      .selectFrom('vm_console_sessions')
      .select('deleted_at')
      .where('id', '=', session.id)
      .executeTakeFirstOrThrow();
    expect(consoleRow.deleted_at).toBeInstanceOf(Date);
    // The garbage collector takes each of them along with the ProxmoxVM.
    expect(await admin.vmSnapshots.find({ namespace, name: snapshot.name })).toBeUndefined();
    expect(await admin.vmBackups.find({ namespace, name: backup })).toBeUndefined();
    expect(await admin.vncRequests.find({ namespace, name: session.name })).toBeUndefined();
  });
});

it('leaves a row to the lease of a replica that died with it, and takes it over once that lease runs out', async () => {
  const agent = await newAgent();
  const vmId = await runningVm(agent);
  const id = randomUUID();
  const name = `nr-${vmId}-snap-${id.slice(0, 8)}`;
  await agent.db
    .insertInto('vm_snapshots')
    .values({
      id,
      vm_id: vmId,
      client_organization_id: agent.seller.clientOrganizationId,
      agent_id: agent.seller.agentId,
      object_name: name,
      snapshot_name: `snap-${id.slice(0, 8)}`,
      lease_owner: 'a-replica-that-died',
      lease_until: sql<Date>`now() + interval '1 second'`,
      updated_at: new Date(),
    })
    .execute();
  const leasedUntil = Date.now() + 1_000;
  agent.dispatcher.kick();
  await eventually(async () => {
    expect(await snapshotRow(agent, id)).toMatchObject({ dispatched_generation: 1, lease_owner: null });
  });
  expect(Date.now()).toBeGreaterThanOrEqual(leasedUntil - 100);
  expect(await env().kube.admin.vmSnapshots.find({ namespace: agent.namespace, name })).toBeDefined();
});
