import type { VMBackup } from '@noderings/kube';
import { CRD_API_VERSION } from '@noderings/kube';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { eventually } from '../dispatch/dispatch.test-support.js';
import {
  newCustomer,
  orderVm,
  startVmResourcesWorld,
  type Customer,
  type VmResourcesWorld,
} from '../vm-snapshots/vm-resources.test-support.js';

interface BackupView {
  id: string;
  name: string;
  backupId: string;
  virtualMachineId: string;
  addonId: string | null;
  createdAt: string;
  sizeBytes: number;
  backupStatus: string;
  restoreStatus: string;
  restoredAt: string | null;
  operationStatus: string;
  statusMessage: string;
}

interface ErrorBody {
  code: string;
  message: string;
}

const FINALIZER = 'vm.noderings.com/test-operator';

describe.each(DATABASE_KINDS)('backups over the API on the %s database', (kind) => {
  let world: VmResourcesWorld;
  let buyer: Customer;
  let vmId: string;
  beforeAll(async () => {
    world = await startVmResourcesWorld(kind);
    buyer = await newCustomer(world);
    vmId = await orderVm(world, buyer);
  }, 60_000);
  afterAll(() => world.close());

  const as = () => ({ as: buyer });
  const backups = () => `/v1/virtual-machines/${vmId}/backups`;
  const proxmoxVm = (id = vmId) =>
    world.kube.admin.proxmoxVMs.get({ namespace: world.namespace, name: `nr-${id}` });

  async function list(query = ''): Promise<{ backups: BackupView[]; totalCount: number }> {
    const response = await world.t.call<{ backups: BackupView[]; totalCount: number }>(
      'GET',
      `${backups()}${query}`,
      as(),
    );
    expect(response.status).toBe(200);
    return response.body;
  }

  /** What the operator's schedule makes: labelled, owned by the ProxmoxVM. */
  async function scheduled(slot: string): Promise<{ object: VMBackup; view: BackupView }> {
    const vm = await proxmoxVm();
    const object = await world.kube.admin.vmBackups.create({
      apiVersion: CRD_API_VERSION,
      kind: 'VMBackup',
      metadata: {
        namespace: world.namespace,
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
      spec: { vmRef: `nr-${vmId}`, storage: 'local', compression: 'lzo', mode: 'snapshot' },
    });
    const view = await eventually(async () => {
      const found = (await list()).backups.find((b) => b.name === object.metadata?.name);
      if (found === undefined) throw new Error(`${object.metadata?.name ?? ''} not listed yet`);
      return found;
    });
    return { object, view };
  }

  async function report(object: VMBackup, status: VMBackup['status']): Promise<void> {
    await world.kube.admin.vmBackups.mergePatchStatus(
      { namespace: world.namespace, name: object.metadata?.name ?? '' },
      { status },
    );
  }

  const get = async (id: string) =>
    (await world.t.call<{ backup: BackupView }>('GET', `${backups()}/${id}`, as())).body.backup;

  it('enables the addon’s schedule with the node’s storage and compression, in the VM’s ProxmoxVM', async () => {
    const enabled = await world.t.call<{ backupPolicy: unknown; virtualMachine: { id: string } }>(
      'POST',
      `/v1/virtual-machines/${vmId}:enable-backup`,
      { ...as(), body: { addonId: world.addonId } },
    );
    expect(enabled.status).toBe(200);
    const policy = { schedule: '0 3 * * *', retention: 2, storage: 'local', compression: 'lzo' };
    expect(enabled.body).toMatchObject({
      virtualMachine: { id: vmId },
      backupPolicy: { addonId: world.addonId, ...policy, compression: 'BACKUP_STORAGE_COMPRESSION_LZO' },
    });
    await eventually(async () => {
      expect((await proxmoxVm()).spec.backupPolicy).toEqual(policy);
    });
  });

  it('refuses addons that are not this VM’s to buy', async () => {
    const enable = (addonId: string) =>
      world.t.call<ErrorBody>('POST', `/v1/virtual-machines/${vmId}:enable-backup`, {
        ...as(),
        body: { addonId },
      });
    const seller = { as: world.seller };
    const ip = await world.t.call<{ addon: { id: string } }>('POST', '/v1/addons', {
      ...seller,
      body: {
        code: 'IPV4',
        name: 'Extra IPv4',
        addonType: 'ADDON_TYPE_ADDITIONAL_IP',
        pricing: { kind: 'fixed', currency: 'EUR', unitAmount: '2' },
      },
    });
    const otherPlan = await world.t.call<{ addon: { id: string } }>('POST', '/v1/addons', {
      ...seller,
      body: {
        code: 'BACKUP-NONE',
        name: 'Backups for no plan',
        addonType: 'ADDON_TYPE_BACKUP',
        pricing: { kind: 'fixed', currency: 'EUR', unitAmount: '1' },
        backupPolicy: { schedule: '0 4 * * *', retention: 3 },
      },
    });
    expect((await enable(ip.body.addon.id)).status).toBe(412);
    expect((await enable(otherPlan.body.addon.id)).status).toBe(412);
    expect((await enable('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    // A customer's own organisation cannot sell it one either.
    const stranger = await world.t.verifiedProvider();
    const foreign = await world.t.call<{ addon: { id: string } }>('POST', '/v1/addons', {
      as: stranger,
      body: {
        code: 'BACKUP-OTHER',
        name: 'Another provider’s backups',
        addonType: 'ADDON_TYPE_BACKUP',
        pricing: { kind: 'fixed', currency: 'EUR', unitAmount: '1' },
        backupPolicy: { schedule: '0 4 * * *', retention: 3 },
      },
    });
    expect((await enable(foreign.body.addon.id)).status).toBe(404);
  });

  it('lists the backups the operator makes, with the addon and what the operator reports', async () => {
    const { object, view } = await scheduled('20261130-0300');
    expect(view).toMatchObject({
      backupId: view.id,
      virtualMachineId: vmId,
      addonId: world.addonId,
      createdAt: new Date(object.metadata?.creationTimestamp ?? '').toISOString(),
      sizeBytes: 0,
      backupStatus: 'BACKUP_STATUS_ACTIVE',
      restoreStatus: 'RESTORE_STATUS_NONE',
      restoredAt: null,
      operationStatus: 'BACKUP_OPERATION_STATUS_PENDING',
    });
    await report(object, { phase: 'Running' });
    await eventually(async () => {
      expect((await get(view.id)).operationStatus).toBe('BACKUP_OPERATION_STATUS_PROCESSING');
    });
    await report(object, {
      phase: 'Completed',
      volid: 'local:backup/vzdump-qemu-1000-2026_11_30-03_00_00.vma.lzo',
      sizeBytes: 987_654_321,
    });
    await eventually(async () => {
      expect(await get(view.id)).toMatchObject({
        sizeBytes: 987_654_321,
        backupStatus: 'BACKUP_STATUS_ACTIVE',
        operationStatus: 'BACKUP_OPERATION_STATUS_COMPLETED',
      });
    });
  });

  it('restores a completed backup through its VMBackup, and reports the restore', async () => {
    const { object, view } = await scheduled('20261201-0300');
    const restore = (body: unknown) =>
      world.t.call<{ backup: BackupView } & ErrorBody>('POST', `${backups()}/${view.id}/restore`, {
        ...as(),
        body,
      });
    expect((await restore({})).status).toBe(412);
    await report(object, { phase: 'Completed', volid: 'local:backup/x.vma.lzo', sizeBytes: 1 });
    await eventually(async () => {
      expect((await get(view.id)).operationStatus).toBe('BACKUP_OPERATION_STATUS_COMPLETED');
    });
    const asked = await restore({ startAfterRestore: false });
    expect(asked.status).toBe(200);
    expect(asked.body.backup.restoreStatus).toBe('RESTORE_STATUS_REQUESTED');
    const name = object.metadata?.name ?? '';
    const requestedAt = await eventually(async () => {
      const now = await world.kube.admin.vmBackups.get({ namespace: world.namespace, name });
      expect(now.spec.restore?.start).toBe(false);
      return now.spec.restore?.requestedAt ?? '';
    });
    await report(object, { restore: { phase: 'Running', requestedAt, message: 'restoring' } });
    await eventually(async () => {
      expect(await get(view.id)).toMatchObject({
        restoreStatus: 'RESTORE_STATUS_RESTORING',
        statusMessage: 'restoring',
      });
    });
    await report(object, { restore: { phase: 'Completed', requestedAt, message: 'restored' } });
    const restored = await eventually(async () => {
      const now = await get(view.id);
      expect(now.restoreStatus).toBe('RESTORE_STATUS_COMPLETED');
      return now;
    });
    expect(Date.parse(restored.restoredAt ?? '')).toBeGreaterThanOrEqual(Date.parse(requestedAt));
  });

  it('deletes a backup through the operator (DELETED), lists pruned ones as EXPIRED, and filters by status', async () => {
    const { object, view } = await scheduled('20261202-0300');
    const pruned = await scheduled('20261203-0300');
    const name = object.metadata?.name ?? '';
    await world.kube.admin.vmBackups.mergePatch(
      { namespace: world.namespace, name },
      { metadata: { finalizers: [FINALIZER] } },
    );
    const deleting = await world.t.call<{ backup: BackupView }>('DELETE', `${backups()}/${view.id}`, as());
    expect(deleting.status).toBe(200);
    expect(deleting.body.backup.operationStatus).toBe('BACKUP_OPERATION_STATUS_PROCESSING');
    await eventually(async () => {
      const now = await world.kube.admin.vmBackups.get({ namespace: world.namespace, name });
      expect(now.metadata?.deletionTimestamp).toBeDefined();
    });
    await world.kube.admin.vmBackups.mergePatch(
      { namespace: world.namespace, name },
      { metadata: { finalizers: null } },
    );
    await world.kube.admin.vmBackups.delete({
      namespace: world.namespace,
      name: pruned.object.metadata?.name ?? '',
    });
    await eventually(async () => {
      expect((await get(view.id)).backupStatus).toBe('BACKUP_STATUS_DELETED');
      expect((await get(pruned.view.id)).backupStatus).toBe('BACKUP_STATUS_EXPIRED');
    });
    expect((await list('?status=BACKUP_STATUS_DELETED')).backups.map((b) => b.id)).toEqual([view.id]);
    expect((await list('?status=BACKUP_STATUS_EXPIRED')).backups.map((b) => b.id)).toEqual([pruned.view.id]);
    expect((await list('?status=BACKUP_STATUS_ACTIVE')).backups.map((b) => b.id)).not.toContain(view.id);
    const refused = await world.t.call('POST', `${backups()}/${view.id}/restore`, { ...as(), body: {} });
    expect(refused.status).toBe(412);
  });

  it('shows another organisation nothing and lets it change nothing (404)', async () => {
    const { view } = await scheduled('20261204-0300');
    const stranger = { as: await newCustomer(world) };
    const attempts = [
      await world.t.call('GET', backups(), stranger),
      await world.t.call('GET', `${backups()}/${view.id}`, stranger),
      await world.t.call('DELETE', `${backups()}/${view.id}`, stranger),
      await world.t.call('POST', `${backups()}/${view.id}/restore`, { ...stranger, body: {} }),
      await world.t.call('POST', `/v1/virtual-machines/${vmId}:enable-backup`, {
        ...stranger,
        body: { addonId: world.addonId },
      }),
      await world.t.call('POST', `/v1/virtual-machines/${vmId}:disable-backup`, {
        ...stranger,
        body: { addonId: world.addonId, cancelImmediately: true },
      }),
    ];
    expect(attempts.map((a) => a.status)).toEqual([404, 404, 404, 404, 404, 404]);
    expect(await get(view.id)).toEqual(view);
    expect((await proxmoxVm()).spec.backupPolicy).toBeDefined();
  });

  it('disables: the schedule stops and its backups stay, or go too with cancelImmediately', async () => {
    const disable = (body: unknown) =>
      world.t.call<ErrorBody>('POST', `/v1/virtual-machines/${vmId}:disable-backup`, { ...as(), body });
    expect((await disable({ addonId: '00000000-0000-4000-8000-000000000000' })).status).toBe(412);
    expect((await disable({ addonId: world.addonId })).status).toBe(200);
    await eventually(async () => {
      expect((await proxmoxVm()).spec.backupPolicy).toBeUndefined();
    });
    const active = (await list('?status=BACKUP_STATUS_ACTIVE')).backups;
    expect(active.length).toBeGreaterThan(0);
    expect((await disable({ addonId: world.addonId })).status).toBe(412);

    const enabled = await world.t.call('POST', `/v1/virtual-machines/${vmId}:enable-backup`, {
      ...as(),
      body: { addonId: world.addonId },
    });
    expect(enabled.status).toBe(200);
    expect((await disable({ addonId: world.addonId, cancelImmediately: true })).status).toBe(200);
    await eventually(async () => {
      expect((await list('?status=BACKUP_STATUS_ACTIVE')).backups).toEqual([]);
      for (const backup of active) expect((await get(backup.id)).backupStatus).toBe('BACKUP_STATUS_DELETED');
    });
  });
});
