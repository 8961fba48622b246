import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { eventually } from '../dispatch/dispatch.test-support.js';
import {
  newCustomer,
  orderVm,
  reportRunning,
  startVmResourcesWorld,
  type Customer,
  type VmResourcesWorld,
} from './vm-resources.test-support.js';

interface SnapshotView {
  id: string;
  name: string;
  snapshotId: string;
  virtualMachineId: string;
  createdAt: string;
  description: string;
  snapshotStatus: string;
  restoreStatus: string;
  operationStatus: string;
  lastRestore: string | null;
  statusMessage: string;
}

interface ErrorBody {
  code: string;
  message: string;
}

const FINALIZER = 'vm.noderings.com/test-operator';

describe.each(DATABASE_KINDS)('snapshots over the API on the %s database', (kind) => {
  let world: VmResourcesWorld;
  let buyer: Customer;
  let vmId: string;
  beforeAll(async () => {
    world = await startVmResourcesWorld(kind);
    buyer = await newCustomer(world);
    vmId = await orderVm(world, buyer);
    await reportRunning(world, vmId);
  }, 60_000);
  afterAll(() => world.close());

  const base = () => `/v1/virtual-machines/${vmId}/snapshots`;
  const call = (method: string, path: string, body?: unknown) =>
    world.t.call<{ snapshot: SnapshotView } & Partial<ErrorBody>>(method, path, { as: buyer, body });

  async function take(description = ''): Promise<SnapshotView> {
    const created = await call('POST', base(), { description });
    expect(created.status).toBe(201);
    return created.body.snapshot;
  }

  /** What the operator reports on the snapshot's VMSnapshot. */
  async function report(snapshot: SnapshotView, status: Record<string, unknown>): Promise<void> {
    const name = `nr-${vmId}-snap-${snapshot.id.slice(0, 8)}`;
    await eventually(async () => {
      expect(await world.kube.admin.vmSnapshots.find({ namespace: world.namespace, name })).toBeDefined();
    });
    await world.kube.admin.vmSnapshots.mergePatchStatus({ namespace: world.namespace, name }, { status });
  }

  it('takes a snapshot with a Proxmox-valid name, carries it to the cluster, and shows what the operator reports', async () => {
    const snapshot = await take('before the upgrade');
    expect(snapshot).toMatchObject({
      snapshotId: snapshot.id,
      virtualMachineId: vmId,
      description: 'before the upgrade',
      snapshotStatus: 'SNAPSHOT_STATUS_ACTIVE',
      operationStatus: 'SNAPSHOT_OPERATION_STATUS_PENDING',
      restoreStatus: 'RESTORE_STATUS_NONE',
      lastRestore: null,
    });
    expect(snapshot.name).toMatch(/^snap-\d{8}-\d{6}-[0-9a-f]{8}$/);
    expect(snapshot.name.length).toBeLessThanOrEqual(40);

    const object = await eventually(async () => {
      const found = await world.kube.admin.vmSnapshots.find({
        namespace: world.namespace,
        name: `nr-${vmId}-snap-${snapshot.id.slice(0, 8)}`,
      });
      expect(found).toBeDefined();
      return found;
    });
    expect(object?.spec).toEqual({
      vmRef: `nr-${vmId}`,
      snapshotName: snapshot.name,
      description: 'before the upgrade',
    });

    await report(snapshot, { phase: 'Creating' });
    await eventually(async () => {
      expect((await call('GET', `${base()}/${snapshot.id}`)).body.snapshot.operationStatus).toBe(
        'SNAPSHOT_OPERATION_STATUS_PROCESSING',
      );
    });
    await report(snapshot, { phase: 'Ready' });
    await eventually(async () => {
      expect((await call('GET', `${base()}/${snapshot.id}`)).body.snapshot).toMatchObject({
        snapshotStatus: 'SNAPSHOT_STATUS_ACTIVE',
        operationStatus: 'SNAPSHOT_OPERATION_STATUS_COMPLETED',
      });
    });
  });

  it('rolls back only with stopVm on a running VM, and reports the rollback served', async () => {
    const snapshot = await take();
    const early = await call('POST', `${base()}/${snapshot.id}/restore`, { stopVm: true });
    expect(early.status).toBe(412);
    await report(snapshot, { phase: 'Ready' });
    await eventually(async () => {
      expect((await call('GET', `${base()}/${snapshot.id}`)).body.snapshot.operationStatus).toBe(
        'SNAPSHOT_OPERATION_STATUS_COMPLETED',
      );
    });

    const refused = await call('POST', `${base()}/${snapshot.id}/restore`, {});
    expect(refused.status).toBe(412);
    expect(refused.body.message).toContain('stopVm');
    const misnamed = await call('POST', `${base()}/${snapshot.id}/restore`, {
      snapshotName: 'another',
      stopVm: true,
    });
    expect(misnamed.status).toBe(400);

    const restored = await call('POST', `${base()}/${snapshot.id}/restore`, {
      snapshotName: snapshot.name,
      stopVm: true,
    });
    expect(restored.status).toBe(200);
    expect(restored.body.snapshot).toMatchObject({
      restoreStatus: 'RESTORE_STATUS_REQUESTED',
      operationStatus: 'SNAPSHOT_OPERATION_STATUS_PENDING',
    });
    const name = `nr-${vmId}-snap-${snapshot.id.slice(0, 8)}`;
    const requestedAt = await eventually(async () => {
      const object = await world.kube.admin.vmSnapshots.get({ namespace: world.namespace, name });
      expect(object.spec.rollbackRequestedAt).toBeDefined();
      return object.spec.rollbackRequestedAt ?? '';
    });
    await report(snapshot, { phase: 'RollingBack' });
    await eventually(async () => {
      expect((await call('GET', `${base()}/${snapshot.id}`)).body.snapshot.restoreStatus).toBe(
        'RESTORE_STATUS_RESTORING',
      );
    });
    await report(snapshot, { phase: 'Ready', lastRollbackAt: requestedAt });
    await eventually(async () => {
      expect((await call('GET', `${base()}/${snapshot.id}`)).body.snapshot).toMatchObject({
        restoreStatus: 'RESTORE_STATUS_COMPLETED',
        operationStatus: 'SNAPSHOT_OPERATION_STATUS_COMPLETED',
        lastRestore: requestedAt,
      });
    });
  });

  it('deletes through the operator, then lists the snapshot as DELETED (and filters by status)', async () => {
    const snapshot = await take();
    const name = `nr-${vmId}-snap-${snapshot.id.slice(0, 8)}`;
    await report(snapshot, { phase: 'Ready' });
    await world.kube.admin.vmSnapshots.mergePatch(
      { namespace: world.namespace, name },
      { metadata: { finalizers: [FINALIZER] } },
    );
    const deleting = await call('DELETE', `${base()}/${snapshot.id}`);
    expect(deleting.status).toBe(200);
    expect(deleting.body.snapshot).toMatchObject({
      snapshotStatus: 'SNAPSHOT_STATUS_ACTIVE',
      operationStatus: 'SNAPSHOT_OPERATION_STATUS_PROCESSING',
    });
    expect((await call('DELETE', `${base()}/${snapshot.id}`)).status).toBe(200);
    await eventually(async () => {
      const object = await world.kube.admin.vmSnapshots.get({ namespace: world.namespace, name });
      expect(object.metadata?.deletionTimestamp).toBeDefined();
    });
    await world.kube.admin.vmSnapshots.mergePatch(
      { namespace: world.namespace, name },
      { metadata: { finalizers: null } },
    );
    await eventually(async () => {
      expect((await call('GET', `${base()}/${snapshot.id}`)).body.snapshot).toMatchObject({
        snapshotStatus: 'SNAPSHOT_STATUS_DELETED',
        operationStatus: 'SNAPSHOT_OPERATION_STATUS_COMPLETED',
      });
    });

    const list = async (query: string) =>
      (
        await world.t.call<{ snapshots: SnapshotView[]; totalCount: number }>('GET', `${base()}${query}`, {
          as: buyer,
        })
      ).body;
    const all = await list('');
    expect(all.snapshots.map((s) => s.id)).toContain(snapshot.id);
    expect(all.totalCount).toBe(all.snapshots.length);
    expect((await list('?status=SNAPSHOT_STATUS_DELETED')).snapshots.map((s) => s.id)).toEqual([snapshot.id]);
    expect((await list('?status=SNAPSHOT_STATUS_ACTIVE')).snapshots.map((s) => s.id)).not.toContain(
      snapshot.id,
    );
    const page = await list('?pageSize=1&page=1');
    expect(page.snapshots).toHaveLength(1);
    expect(page.totalCount).toBe(all.totalCount);
  });

  it('keeps at most ten live snapshots of a VM', async () => {
    const other = await orderVm(world, buyer);
    const path = `/v1/virtual-machines/${other}/snapshots`;
    for (let i = 0; i < 10; i++)
      expect((await world.t.call('POST', path, { as: buyer, body: {} })).status).toBe(201);
    const refused = await world.t.call<ErrorBody>('POST', path, { as: buyer, body: {} });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RESOURCE_EXHAUSTED');
  });

  it('shows another organisation nothing and lets it change nothing (404)', async () => {
    const snapshot = await take('mine');
    const stranger = await newCustomer(world);
    const as = { as: stranger };
    const attempts = [
      await world.t.call('GET', base(), as),
      await world.t.call('POST', base(), { ...as, body: {} }),
      await world.t.call('GET', `${base()}/${snapshot.id}`, as),
      await world.t.call('DELETE', `${base()}/${snapshot.id}`, as),
      await world.t.call('POST', `${base()}/${snapshot.id}/restore`, { ...as, body: { stopVm: true } }),
    ];
    expect(attempts.map((a) => a.status)).toEqual([404, 404, 404, 404, 404]);
    expect((await call('GET', `${base()}/${snapshot.id}`)).body.snapshot).toEqual(snapshot);
    // A snapshot of one VM is not found under another of the same customer's VMs either.
    const other = await orderVm(world, buyer);
    expect((await call('GET', `/v1/virtual-machines/${other}/snapshots/${snapshot.id}`)).status).toBe(404);
  });

  it('takes no snapshot of a VM being deleted', async () => {
    const doomed = await orderVm(world, buyer);
    expect((await world.t.call('DELETE', `/v1/virtual-machines/${doomed}`, { as: buyer })).status).toBe(200);
    const refused = await world.t.call<ErrorBody>('POST', `/v1/virtual-machines/${doomed}/snapshots`, {
      as: buyer,
      body: {},
    });
    expect(refused.status).toBe(412);
  });
});
