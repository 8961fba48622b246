import type { SimVm } from '../cluster-state.js';
import { TaskError, die } from '../pve-error.js';
import { configIdFormat } from '../pve-formats.js';
import {
  requirePrivilege,
  startTask,
  type ApiRequest,
  type Route,
  type SimCore,
  requestedVm,
} from '../sim-core.js';
import { assertUnlocked, clearLock, setLock } from '../vm-locks.js';
import { NODE, OPTIONAL_BOOLEAN, OPTIONAL_STRING, VMID } from './common-params.js';
import { startVm, stopVm } from '../vm-power.js';

const SNAP = {
  node: NODE,
  vmid: VMID,
  snapname: { type: 'string', format: configIdFormat, maxLength: 40 },
} as const;

export function snapshotRoutes(): Route[] {
  return [
    {
      method: 'GET',
      path: '/nodes/:node/qemu/:vmid/snapshot',
      params: { properties: { node: NODE, vmid: VMID } },
      handler: (core, req) => {
        const vm = requestedVm(core, req);
        requirePrivilege(req, `/vms/${vm.vmid}`, 'VM.Audit');
        return [
          ...vm.snapshots.map((s) => ({
            name: s.name,
            description: s.description,
            snaptime: s.snaptime,
            ...(s.parent ? { parent: s.parent } : {}),
            ...(s.vmstate ? { vmstate: 1 } : {}),
          })),
          {
            name: 'current',
            description: 'You are here!',
            digest: '',
            ...(vm.parent ? { parent: vm.parent } : {}),
            ...(vm.running ? { running: 1 } : {}),
          },
        ];
      },
    },
    {
      method: 'POST',
      path: '/nodes/:node/qemu/:vmid/snapshot',
      params: { properties: { ...SNAP, description: OPTIONAL_STRING, vmstate: OPTIONAL_BOOLEAN } },
      handler: (core, req) => {
        const vm = requestedVm(core, req);
        requirePrivilege(req, `/vms/${vm.vmid}`, 'VM.Snapshot');
        const name = req.params.snapname as string;
        if (name === 'current') throw die(`snapshot name 'current' is reserved`);
        if (vm.snapshots.some((s) => s.name === name)) throw die(`snapshot name '${name}' already used`);
        assertUnlocked(vm);
        return withLock(core, req, vm, 'snapshot', 'qmsnapshot', (log) => {
          vm.snapshots.push({
            name,
            description: (req.params.description as string | undefined) ?? '',
            snaptime: Math.floor(Date.now() / 1000),
            ...(vm.parent ? { parent: vm.parent } : {}),
            vmstate: req.params.vmstate === true && vm.running,
            config: { ...vm.config },
          });
          vm.parent = name;
          log(`snapshotting 'drive-scsi0' (${vm.config.scsi0?.split(',')[0] ?? ''})`);
        });
      },
    },
    {
      method: 'POST',
      path: '/nodes/:node/qemu/:vmid/snapshot/:snapname/rollback',
      params: { properties: { ...SNAP, start: OPTIONAL_BOOLEAN } },
      handler: (core, req) => {
        const vm = requestedVm(core, req);
        requirePrivilege(req, `/vms/${vm.vmid}`, 'VM.Snapshot.Rollback', 'VM.Snapshot');
        const snap = findSnapshot(vm, req.params.snapname as string);
        assertUnlocked(vm);
        return withLock(core, req, vm, 'rollback', 'qmrollback', () => {
          stopVm(core, vm);
          vm.config = { ...snap.config };
          vm.pending = {};
          vm.pendingDelete = [];
          vm.parent = snap.name;
          if (snap.vmstate || req.params.start === true) startVm(core, vm);
        });
      },
    },
    {
      method: 'DELETE',
      path: '/nodes/:node/qemu/:vmid/snapshot/:snapname',
      params: { properties: { ...SNAP, force: OPTIONAL_BOOLEAN } },
      handler: (core, req) => {
        const vm = requestedVm(core, req);
        requirePrivilege(req, `/vms/${vm.vmid}`, 'VM.Snapshot');
        const snap = findSnapshot(vm, req.params.snapname as string);
        assertUnlocked(vm);
        return withLock(core, req, vm, 'snapshot-delete', 'qmdelsnapshot', () => {
          for (const child of vm.snapshots) if (child.parent === snap.name) child.parent = snap.parent ?? '';
          vm.snapshots = vm.snapshots.filter((s) => s !== snap);
          if (vm.parent === snap.name) vm.parent = snap.parent ?? '';
          if (vm.parent === '') delete vm.parent;
        });
      },
    },
  ];
}

function findSnapshot(vm: SimVm, name: string) {
  const snap = vm.snapshots.find((s) => s.name === name);
  if (!snap) throw die(`snapshot '${name}' does not exist`);
  return snap;
}

function withLock(
  core: SimCore,
  req: ApiRequest,
  vm: SimVm,
  lock: string,
  type: string,
  work: (log: (l: string) => void) => void,
): string {
  setLock(vm, lock);
  core.changed();
  return startTask(core, req, {
    node: vm.node,
    type,
    id: vm.vmid,
    work: async (log) => {
      await log.elapse();
      if (core.state.vms[vm.vmid] !== vm)
        throw new TaskError(
          `Configuration file 'nodes/${vm.node}/qemu-server/${vm.vmid}.conf' does not exist`,
        );
      clearLock(vm, lock);
      work(log);
    },
    finally: () => {
      clearLock(vm, lock);
    },
  });
}
