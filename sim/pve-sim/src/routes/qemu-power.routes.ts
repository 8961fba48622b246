import type { SimVm } from '../cluster-state.js';
import { TaskError, die } from '../pve-error.js';
import {
  requirePrivilege,
  startTask,
  type ApiRequest,
  type Route,
  type SimCore,
  requestedVm,
} from '../sim-core.js';
import { assertUnlocked } from '../vm-locks.js';
import { NODE, OPTIONAL_BOOLEAN, OPTIONAL_STRING, VMID } from './common-params.js';
import { startVm, stopVm } from '../vm-power.js';

const VM_PATH = { node: NODE, vmid: VMID };

export function qemuPowerRoutes(): Route[] {
  return [
    {
      method: 'POST',
      path: '/nodes/:node/qemu/:vmid/status/start',
      params: {
        properties: {
          ...VM_PATH,
          skiplock: OPTIONAL_BOOLEAN,
          timeout: { type: 'integer', optional: true, minimum: 0 },
          machine: OPTIONAL_STRING,
          'force-cpu': OPTIONAL_STRING,
          migratedfrom: OPTIONAL_STRING,
        },
      },
      handler: (core, req) =>
        power(core, req, 'qmstart', (vm, log) => {
          if (vm.running) throw new TaskError(`VM ${vm.vmid} already running`);
          if (vm.config.template === '1') throw new TaskError(`you can't start a vm if it's a template`);
          assertUnlocked(vm, req.params.skiplock === true);
          startVm(core, vm);
          log(`generating cloud-init ISO`);
        }),
    },
    {
      method: 'POST',
      path: '/nodes/:node/qemu/:vmid/status/stop',
      params: {
        properties: {
          ...VM_PATH,
          skiplock: OPTIONAL_BOOLEAN,
          keepActive: OPTIONAL_BOOLEAN,
          timeout: { type: 'integer', optional: true, minimum: 0 },
          'overrule-shutdown': OPTIONAL_BOOLEAN,
          migratedfrom: OPTIONAL_STRING,
        },
      },
      handler: (core, req) =>
        power(core, req, 'qmstop', (vm) => {
          assertUnlocked(vm, req.params.skiplock === true);
          stopVm(core, vm);
        }),
    },
    {
      method: 'POST',
      path: '/nodes/:node/qemu/:vmid/status/shutdown',
      params: {
        properties: {
          ...VM_PATH,
          skiplock: OPTIONAL_BOOLEAN,
          keepActive: OPTIONAL_BOOLEAN,
          timeout: { type: 'integer', optional: true, minimum: 0 },
          forceStop: OPTIONAL_BOOLEAN,
        },
      },
      handler: (core, req) =>
        power(core, req, 'qmshutdown', (vm, log) => {
          assertUnlocked(vm, req.params.skiplock === true);
          if (!vm.running) return;
          if (vm.ignoreShutdown) {
            if (req.params.forceStop !== true) throw new TaskError('VM quit/powerdown failed - got timeout');
            log('VM still running - terminating now with SIGTERM');
          }
          stopVm(core, vm);
        }),
    },
    {
      method: 'POST',
      path: '/nodes/:node/qemu/:vmid/status/reboot',
      params: { properties: { ...VM_PATH, timeout: { type: 'integer', optional: true, minimum: 0 } } },
      handler: (core, req) => {
        const vm = requestedVm(core, req);
        requirePrivilege(req, `/vms/${vm.vmid}`, 'VM.PowerMgmt');
        if (!vm.running) throw die(`VM ${vm.vmid} not running`);
        return power(core, req, 'qmreboot', (target) => {
          assertUnlocked(target);
          if (target.ignoreShutdown) throw new TaskError('VM quit/powerdown failed - got timeout');
          stopVm(core, target);
          startVm(core, target);
        });
      },
    },
    {
      method: 'POST',
      path: '/nodes/:node/qemu/:vmid/status/reset',
      params: { properties: { ...VM_PATH, skiplock: OPTIONAL_BOOLEAN } },
      handler: (core, req) => {
        const vm = requestedVm(core, req);
        requirePrivilege(req, `/vms/${vm.vmid}`, 'VM.PowerMgmt');
        if (!vm.running) throw die(`VM ${vm.vmid} not running`);
        assertUnlocked(vm, req.params.skiplock === true);
        return power(core, req, 'qmreset', () => undefined);
      },
    },
  ];
}

/**
 * Power actions: the early checks run in the request, everything else inside the task, including the
 * existence of the VM (`Configuration file … does not exist` is a task error here, as in PVE).
 */
function power(
  core: SimCore,
  req: ApiRequest,
  type: string,
  act: (vm: SimVm, log: (line: string) => void) => void,
): string {
  const node = req.params.node as string;
  const vmid = req.params.vmid as number;
  requirePrivilege(req, `/vms/${vmid}`, 'VM.PowerMgmt');
  return startTask(core, req, {
    node,
    type,
    id: vmid,
    work: (log) => {
      const vm = core.state.vms[vmid];
      if (vm?.node !== node)
        throw new TaskError(`Configuration file 'nodes/${node}/qemu-server/${vmid}.conf' does not exist`);
      act(vm, log);
    },
  });
}
