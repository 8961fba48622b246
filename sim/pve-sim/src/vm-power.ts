import type { SimVm } from './cluster-state.js';
import type { SimCore } from './sim-core.js';
import { applyPending } from './vm-config-update.js';

/** The VM's QEMU process starts: pending changes apply, counters start from zero. */
export function startVm(core: SimCore, vm: SimVm): void {
  applyPending(core.state, vm);
  vm.running = true;
  vm.startedAt = Date.now();
  vm.pid = 1000 + Math.floor(Math.random() * 4_000_000);
}

/** The VM's QEMU process ends, and with it any console session. */
export function stopVm(core: SimCore, vm: SimVm): void {
  core.vnc.closeVm(vm.vmid);
  vm.running = false;
  delete vm.startedAt;
  delete vm.pid;
}
