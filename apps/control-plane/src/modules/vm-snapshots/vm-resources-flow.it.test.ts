import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { eventually, startAgentClusterSim, type AgentClusterSim } from '../dispatch/dispatch.test-support.js';
import {
  startSimulatedProvider,
  type SimulatedProvider,
} from '../dispatch/simulated-provider.test-support.js';
import { consoleSecretAssociatedData } from '../vm-console/index.js';
import {
  newCustomer,
  orderVm,
  startVmResourcesWorld,
  type Customer,
  type VmResourcesWorld,
} from './vm-resources.test-support.js';

// Snapshots, backups and the console end to end over real HTTP: the control plane (on the machine's
// PostgreSQL) dispatches them to kube-sim, the real proxmox-operator carries them out on pve-sim, and what
// pve-sim then holds is checked with the operator's own token.

interface Task {
  type: string;
  id: string;
  status?: string;
}

const SLOW = 90_000;

describe('a VM’s snapshots, backups and console, end to end', () => {
  let kube: AgentClusterSim;
  let provider: SimulatedProvider;
  let world: VmResourcesWorld;
  let buyer: Customer;
  let vmId: string;
  let node: string;
  let vmid: number;

  beforeAll(async () => {
    kube = await startAgentClusterSim();
    provider = await startSimulatedProvider(kube);
    node = provider.pveNodes[0] ?? 'pve1';
    world = await startVmResourcesWorld('postgres', {
      kube,
      platform: { endpointUrl: provider.pveUrl, node },
      // Every minute, so that a backup is made during the test.
      backupSchedule: '* * * * *',
      onPeered: (agentId) => provider.startOperator(agentId),
    });
    buyer = await newCustomer(world);
    vmId = await orderVm(world, buyer);
    await eventually(
      async () => {
        const vm = await world.t.call<{
          virtualMachine: { provisioningState: string; statusMessage: string };
        }>('GET', `/v1/virtual-machines/${vmId}`, { as: buyer });
        const { provisioningState, statusMessage } = vm.body.virtualMachine;
        expect(provisioningState, `${statusMessage}\n${provider.output()}`).toBe('RUNNING');
      },
      60_000,
      250,
    );
    const row = await world.t.cp.db
      .selectFrom('virtual_machines')
      .select('spec')
      .where('id', '=', vmId)
      .executeTakeFirstOrThrow();
    vmid = (row.spec as { vmid: number }).vmid;
  }, 120_000);

  afterAll(async () => {
    try {
      await world.close();
    } finally {
      await provider.close();
      await kube.close();
    }
  });

  const call = <T>(method: string, path: string, body?: unknown) =>
    world.t.call<T>(method, path, { as: buyer, body });
  const tasks = () => provider.pveGet<Task[]>(`/nodes/${node}/tasks?vmid=${String(vmid)}&limit=500`);

  it('takes a snapshot on Proxmox, rolls the VM back to it, and deletes it', { timeout: SLOW }, async () => {
    interface Snapshot {
      id: string;
      name: string;
      operationStatus: string;
      restoreStatus: string;
      snapshotStatus: string;
      statusMessage: string;
    }
    const base = `/v1/virtual-machines/${vmId}/snapshots`;
    const get = async (id: string) =>
      (await call<{ snapshot: Snapshot }>('GET', `${base}/${id}`)).body.snapshot;
    const taken = await call<{ snapshot: Snapshot }>('POST', base, { description: 'before the upgrade' });
    expect(taken.status).toBe(201);
    const { id, name } = taken.body.snapshot;
    await eventually(
      async () => {
        const now = await get(id);
        expect(now.operationStatus, `${now.statusMessage}\n${provider.output()}`).toBe(
          'SNAPSHOT_OPERATION_STATUS_COMPLETED',
        );
      },
      SLOW,
      250,
    );
    const onProxmox = await provider.pveGet<{ name: string; description?: string }[]>(
      `/nodes/${node}/qemu/${String(vmid)}/snapshot`,
    );
    expect(onProxmox).toContainEqual(expect.objectContaining({ name, description: 'before the upgrade' }));

    const restore = await call<{ snapshot: Snapshot }>('POST', `${base}/${id}/restore`, { stopVm: true });
    expect(restore.status).toBe(200);
    await eventually(
      async () => {
        const now = await get(id);
        expect(now.restoreStatus, `${now.statusMessage}\n${provider.output()}`).toBe(
          'RESTORE_STATUS_COMPLETED',
        );
      },
      SLOW,
      250,
    );
    expect(await tasks()).toContainEqual(expect.objectContaining({ type: 'qmrollback', status: 'OK' }));
    // The VM is wanted running: the operator starts it again after the rollback stopped it.
    await eventually(
      async () => {
        const status = await provider.pveGet<{ status: string }>(
          `/nodes/${node}/qemu/${String(vmid)}/status/current`,
        );
        expect(status.status).toBe('running');
      },
      SLOW,
      250,
    );

    expect((await call('DELETE', `${base}/${id}`)).status).toBe(200);
    await eventually(
      async () => {
        expect((await get(id)).snapshotStatus).toBe('SNAPSHOT_STATUS_DELETED');
      },
      SLOW,
      250,
    );
    const left = await provider.pveGet<{ name: string }[]>(`/nodes/${node}/qemu/${String(vmid)}/snapshot`);
    expect(left.map((s) => s.name)).not.toContain(name);
  });

  it(
    'backs the VM up on the addon’s schedule, restores it from the backup, and deletes the archive',
    { timeout: 3 * SLOW },
    async () => {
      interface Backup {
        id: string;
        addonId: string | null;
        sizeBytes: number;
        backupStatus: string;
        operationStatus: string;
        restoreStatus: string;
        statusMessage: string;
      }
      const base = `/v1/virtual-machines/${vmId}/backups`;
      const enabled = await call('POST', `/v1/virtual-machines/${vmId}:enable-backup`, {
        addonId: world.addonId,
      });
      expect(enabled.status).toBe(200);
      // The next minute's run: the operator's schedule makes a VMBackup, status sync finds it.
      const backup = await eventually(
        async () => {
          const list = await call<{ backups: Backup[] }>('GET', `${base}?status=BACKUP_STATUS_ACTIVE`);
          const done = list.body.backups.find(
            (b) => b.operationStatus === 'BACKUP_OPERATION_STATUS_COMPLETED',
          );
          if (done === undefined)
            throw new Error(`no completed backup yet: ${JSON.stringify(list.body)}\n${provider.output()}`);
          return done;
        },
        2 * SLOW,
        500,
      );
      expect(backup.addonId).toBe(world.addonId);
      expect(backup.sizeBytes).toBeGreaterThan(0);
      const { observed_volid: volid } = await world.t.cp.db
        .selectFrom('vm_backups')
        .select('observed_volid')
        .where('id', '=', backup.id)
        .executeTakeFirstOrThrow();
      const archives = async () =>
        (
          await provider.pveGet<{ volid: string }[]>(
            `/nodes/${node}/storage/local/content?content=backup&vmid=${String(vmid)}`,
          )
        ).map((a) => a.volid);
      expect(await archives()).toContain(volid);
      expect(volid).toMatch(/\.vma\.lzo$/);

      const restore = await call('POST', `${base}/${backup.id}/restore`, { startAfterRestore: true });
      expect(restore.status).toBe(200);
      await eventually(
        async () => {
          const now = (await call<{ backup: Backup }>('GET', `${base}/${backup.id}`)).body.backup;
          expect(now.restoreStatus, `${now.statusMessage}\n${provider.output()}`).toBe(
            'RESTORE_STATUS_COMPLETED',
          );
        },
        SLOW,
        250,
      );
      expect(await tasks()).toContainEqual(expect.objectContaining({ type: 'qmrestore', status: 'OK' }));

      expect(
        (await call('POST', `/v1/virtual-machines/${vmId}:disable-backup`, { addonId: world.addonId }))
          .status,
      ).toBe(200);
      expect((await call('DELETE', `${base}/${backup.id}`)).status).toBe(200);
      await eventually(
        async () => {
          const now = (await call<{ backup: Backup }>('GET', `${base}/${backup.id}`)).body.backup;
          expect(now.backupStatus).toBe('BACKUP_STATUS_DELETED');
        },
        SLOW,
        250,
      );
      expect(await archives()).not.toContain(volid);
    },
  );

  it(
    'opens a console session: Proxmox’s VNC proxy, its ticket, and the RFB password',
    { timeout: SLOW },
    async () => {
      await eventually(
        async () => {
          const status = await provider.pveGet<{ status: string }>(
            `/nodes/${node}/qemu/${String(vmid)}/status/current`,
          );
          expect(status.status).toBe('running');
        },
        SLOW,
        250,
      );
      const opened = await call<{
        sessionId: string;
        password: string;
        token: string;
        expiresAt: string;
        websocketUrl: string;
      }>('GET', `/v1/virtual-machines/${vmId}/console`);
      expect(opened.status, JSON.stringify(opened.body)).toBe(200);
      const { sessionId, password, expiresAt } = opened.body;
      expect(password).toMatch(/^.{8}$/);
      expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
      // pve-sim's ticket carries the password it goes with, and the proxy runs as a vncproxy task of the VM.
      const row = await world.t.cp.db
        .selectFrom('vm_console_sessions')
        .select(['ticket_ciphertext', 'observed_node', 'observed_vmid', 'observed_port'])
        .where('id', '=', sessionId)
        .executeTakeFirstOrThrow();
      const ticket = world.secretBox.open(
        row.ticket_ciphertext ?? '',
        consoleSecretAssociatedData(sessionId, 'ticket'),
      );
      expect(ticket.startsWith(`${password}:PVEVNC:`)).toBe(true);
      expect(row).toMatchObject({ observed_node: node, observed_vmid: vmid });
      expect(row.observed_port).toBeGreaterThanOrEqual(5900);
      expect(await tasks()).toContainEqual(expect.objectContaining({ type: 'vncproxy', id: String(vmid) }));
      expect(world.t.logLines.filter((line) => line.includes(password))).toEqual([]);
    },
  );
});
