import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiPath } from '../../api/api-client.js';
import { messageOf } from '../../api/api-error.js';
import type { VirtualMachine } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { vmQueryKey } from './vm-queries.js';
import { availablePowerActions, type PendingAction, type PowerAction } from './vm-state.js';

const ACTIONS: readonly { action: PowerAction; label: string; said: string }[] = [
  { action: 'start', label: 'Start', said: 'Starting' },
  { action: 'stop', label: 'Stop', said: 'Stopping' },
  { action: 'restart', label: 'Restart', said: 'Restarting' },
];

/** Start, stop and restart (`POST /v1/virtual-machines/{id}:start` …); each is offered only when it applies. */
export function PowerControls({
  vm,
  pending,
  onPending,
}: {
  readonly vm: VirtualMachine;
  readonly pending: PendingAction | undefined;
  readonly onPending: (pending: PendingAction) => void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const power = useMutation({
    mutationFn: (action: PowerAction) =>
      api.post<{ virtualMachine: VirtualMachine }>(
        action === 'start'
          ? apiPath`/v1/virtual-machines/${vm.id}:start`
          : action === 'stop'
            ? apiPath`/v1/virtual-machines/${vm.id}:stop`
            : apiPath`/v1/virtual-machines/${vm.id}:restart`,
      ),
    onSuccess: (answer, action) => {
      onPending({ action, since: Date.now() });
      queryClient.setQueryData(vmQueryKey(vm.id), answer);
      announce(`${ACTIONS.find((a) => a.action === action)?.said ?? 'Working on'} ${vm.hostname}.`);
    },
  });
  const available = availablePowerActions(vm, pending, Date.now());
  return (
    <div className="power-controls">
      <div className="button-row" role="group" aria-label="Power">
        {ACTIONS.map(({ action, label }) => (
          <button
            key={action}
            type="button"
            className="button-secondary"
            disabled={!available[action] || power.isPending}
            onClick={() => {
              power.mutate(action);
            }}
          >
            {label}
          </button>
        ))}
      </div>
      {power.error !== null && (
        <p className="form-error" role="alert">
          {messageOf(power.error)}
        </p>
      )}
    </div>
  );
}
