import { addVolume, requireNode, requireStorage, storageAvail, type SimVm } from '../cluster-state.js';
import { die, paramError } from '../pve-error.js';
import { requirePrivilege, startTask, type ApiRequest, type Route, type SimCore } from '../sim-core.js';
import { dataDisks } from '../vm-disks.js';
import { clearLock, setLock } from '../vm-locks.js';
import { NODE, OPTIONAL_BOOLEAN, OPTIONAL_STORAGE, OPTIONAL_STRING } from './common-params.js';

const COMPRESSION: Record<string, { ext: string; ratio: number }> = {
  '0': { ext: 'vma', ratio: 1 },
  '1': { ext: 'vma.lzo', ratio: 0.55 },
  lzo: { ext: 'vma.lzo', ratio: 0.55 },
  gzip: { ext: 'vma.gz', ratio: 0.45 },
  zstd: { ext: 'vma.zst', ratio: 0.4 },
};
/** Share of a disk's size that a simulated guest has written (what a backup has to store). */
const WRITTEN_SHARE = 0.12;

export function vzdumpRoutes(): Route[] {
  return [
    {
      method: 'POST',
      path: '/nodes/:node/vzdump',
      params: {
        properties: {
          node: NODE,
          vmid: { type: 'string', optional: true, pattern: /^\d+([,;\s]+\d+)*$/ },
          all: OPTIONAL_BOOLEAN,
          mode: { type: 'string', optional: true, enum: ['snapshot', 'suspend', 'stop'] },
          compress: { type: 'string', optional: true, enum: ['0', '1', 'gzip', 'lzo', 'zstd'] },
          storage: OPTIONAL_STORAGE,
          remove: OPTIONAL_BOOLEAN,
          'notes-template': { type: 'string', optional: true, maxLength: 1024 },
          'prune-backups': OPTIONAL_STRING,
          protected: OPTIONAL_BOOLEAN,
          bwlimit: { type: 'integer', optional: true, minimum: 0 },
          mailnotification: { type: 'string', optional: true, enum: ['always', 'failure'] },
          'notification-mode': OPTIONAL_STRING,
        },
      },
      handler: vzdump,
    },
  ];
}

function vzdump(core: SimCore, req: ApiRequest): string {
  const node = requireNode(core.state, req.params.node as string);
  const vmidParam = req.params.vmid as string | undefined;
  if (vmidParam === undefined && req.params.all !== true)
    throw paramError({ vmid: 'property is missing and it is not optional' });
  const wanted = (vmidParam ?? '')
    .split(/[,;\s]+/)
    .filter(Boolean)
    .map(Number);
  const vms =
    req.params.all === true
      ? Object.values(core.state.vms).filter((v) => v.node === node.name && v.config.template !== '1')
      : wanted.map((id) => core.state.vms[id]).filter((v): v is SimVm => v !== undefined);
  for (const id of wanted) requirePrivilege(req, `/vms/${id}`, 'VM.Backup');
  const storageId = (req.params.storage as string | undefined) ?? 'local';
  requirePrivilege(req, `/storage/${storageId}`, 'Datastore.AllocateSpace');
  const storage = requireStorage(node, storageId);
  if (!storage.content.includes('backup')) throw die(`storage '${storageId}' does not support backups`);
  const local = vms.filter((v) => v.node === node.name);
  // The VMs live elsewhere: PVE answers a plain "OK" and runs nothing here.
  if (wanted.length > 0 && local.length === 0 && wanted.every((id) => core.state.vms[id])) return 'OK';
  const mode = (req.params.mode as string | undefined) ?? 'snapshot';
  const compress = (req.params.compress as string | undefined) ?? '0';
  const format = COMPRESSION[compress] ?? { ext: 'vma', ratio: 1 };
  const locked = new Set<SimVm>();
  for (const vm of local) {
    if (vm.config.lock === undefined) {
      setLock(vm, 'backup');
      locked.add(vm);
    }
  }
  core.changed();
  return startTask(core, req, {
    node: node.name,
    type: 'vzdump',
    id: wanted.length === 1 ? String(wanted[0]) : '',
    work: async (log) => {
      log(
        `INFO: starting new backup job: vzdump ${wanted.join(' ')} --mode ${mode} --storage ${storageId} --compress ${compress}`,
      );
      // The VMs stay locked while the archive is written.
      await log.elapse();
      let failures = 0;
      for (const id of wanted.filter((i) => !core.state.vms[i])) {
        log(`ERROR: Backup of VM ${id} failed - unable to find VM '${id}'`);
        failures++;
      }
      for (const vm of local) {
        try {
          backupOne(core, req, vm, { storageId, node: node.name, format, mode, locked: locked.has(vm) }, log);
        } catch (e: unknown) {
          log(`ERROR: Backup of VM ${vm.vmid} failed - ${e instanceof Error ? e.message : String(e)}`);
          failures++;
        } finally {
          if (locked.has(vm)) clearLock(vm, 'backup');
        }
      }
      if (failures > 0) throw new Error('job errors');
      log('INFO: Backup job finished successfully');
    },
    finally: () => {
      for (const vm of locked) clearLock(vm, 'backup');
    },
  });
}

interface BackupJob {
  storageId: string;
  node: string;
  format: { ext: string; ratio: number };
  mode: string;
  locked: boolean;
}

function backupOne(
  core: SimCore,
  req: ApiRequest,
  vm: SimVm,
  job: BackupJob,
  log: (line: string) => void,
): void {
  const start = new Date();
  log(`INFO: Starting Backup of VM ${vm.vmid} (qemu)`);
  log(`INFO: Backup started at ${start.toISOString().replace('T', ' ').slice(0, 19)}`);
  if (!job.locked) throw new Error(`VM is locked (${vm.config.lock ?? 'unknown'})`);
  log(`INFO: status = ${vm.running ? 'running' : 'stopped'}`);
  log(`INFO: backup mode: ${job.mode}`);
  const stamp = localStamp(start);
  const file = `vzdump-qemu-${vm.vmid}-${stamp}.${job.format.ext}`;
  const volid = `${job.storageId}:backup/${file}`;
  log(`INFO: creating vzdump archive '/var/lib/vz/dump/${file}'`);
  const written = dataDisks(vm.config).reduce((sum, d) => sum + d.size, 0) * WRITTEN_SHARE;
  const size = Math.max(1024 * 1024, Math.round(written * job.format.ratio));
  const storage = requireStorage(requireNode(core.state, job.node), job.storageId);
  if (size > storageAvail(core.state, job.node, storage)) {
    log(`ERROR: vma_queue_write: write error - No space left on device`);
    throw new Error(`vma_queue_write: write error - No space left on device`);
  }
  const template = req.params['notes-template'] as string | undefined;
  addVolume(core.state, {
    volid,
    node: job.node,
    storage: job.storageId,
    content: 'backup',
    format: job.format.ext,
    size,
    ctime: Math.floor(start.getTime() / 1000),
    vmid: vm.vmid,
    ...(template !== undefined ? { notes: notes(template, vm, core.state.name, job.node) } : {}),
    ...(req.params.protected === true ? { protected: true } : {}),
    backup: {
      config: withoutLock(vm.config),
      ...(core.state.firewalls[vm.vmid] ? { firewall: structuredClone(core.state.firewalls[vm.vmid]) } : {}),
    },
  });
  log(`INFO: archive file size: ${(size / 1024 ** 2).toFixed(0)}MB`);
  log(`INFO: Finished Backup of VM ${vm.vmid} (00:00:01)`);
}

function withoutLock(config: Record<string, string>): Record<string, string> {
  const copy = { ...config };
  delete copy.lock;
  return copy;
}

function notes(template: string, vm: SimVm, cluster: string, node: string): string {
  return template
    .replaceAll('{{guestname}}', vm.config.name ?? `VM ${vm.vmid}`)
    .replaceAll('{{vmid}}', String(vm.vmid))
    .replaceAll('{{node}}', node)
    .replaceAll('{{cluster}}', cluster);
}

/** `YYYY_MM_DD-HH_MM_SS` in local time, as vzdump names its archives. */
function localStamp(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}_${p(d.getMonth() + 1)}_${p(d.getDate())}-${p(d.getHours())}_${p(d.getMinutes())}_${p(d.getSeconds())}`;
}
