import { useQuery } from '@tanstack/react-query';

import { apiPath } from '../../api/api-client.js';
import type { VirtualMachine } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { isVmSettled, VM_POLL_INTERVAL_MS, type PendingAction } from './vm-state.js';

export const vmsQueryKey = ['vms'] as const;
export const vmQueryKey = (id: string) => ['vms', id] as const;

/** The customer's VMs, read again every few seconds while any of them is on its way somewhere. */
export function useVms() {
  const api = useApi();
  return useQuery({
    queryKey: vmsQueryKey,
    queryFn: () =>
      api.get<{ virtualMachines: VirtualMachine[]; totalCount: number }>('/v1/virtual-machines', {
        pageSize: 100,
      }),
    refetchInterval: (query) =>
      query.state.data?.virtualMachines.every((vm) => isVmSettled(vm, undefined, Date.now())) === false
        ? VM_POLL_INTERVAL_MS
        : false,
  });
}

/** One VM, read again every few seconds until it settles (and until a requested action shows). */
export function useVm(id: string, pending: PendingAction | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: vmQueryKey(id),
    queryFn: () => api.get<{ virtualMachine: VirtualMachine }>(apiPath`/v1/virtual-machines/${id}`),
    refetchInterval: (query) => {
      const vm = query.state.data?.virtualMachine;
      if (vm === undefined) return false;
      return isVmSettled(vm, pending, Date.now()) ? false : VM_POLL_INTERVAL_MS;
    },
  });
}
