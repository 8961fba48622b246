import type { SimVm } from './cluster-state.js';
import { die } from './pve-error.js';

/** PVE's `check_lock`: a VM with a `lock` in its config refuses changes. */
export function assertUnlocked(vm: SimVm, skiplock = false): void {
  const lock = vm.config.lock;
  if (lock !== undefined && !skiplock) throw die(`VM is locked (${lock})`);
}

export function setLock(vm: SimVm, lock: string): void {
  vm.config.lock = lock;
}

export function clearLock(vm: SimVm, lock: string): void {
  if (vm.config.lock === lock) delete vm.config.lock;
}
