import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';

import { apiPath } from '../../api/api-client.js';
import type { VirtualMachine } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { formatGiB, formatMiB } from '../../format/bytes.js';
import { formatAgo, formatDateTime } from '../../format/dates.js';
import { distroName } from '../../format/display-names.js';
import { paths } from '../../shell/navigation.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { CopyButton } from '../../ui/copy-button.js';
import { Page, Section } from '../../ui/page.js';
import { QueryState } from '../../ui/query-state.js';
import { StatusBadge } from '../../ui/status-badge.js';
import { BackupsPanel } from './backups-panel.js';
import { BandwidthPanel } from './bandwidth-panel.js';
import { PowerControls } from './power-controls.js';
import { SnapshotsPanel } from './snapshots-panel.js';
import { VmCharts } from './vm-charts.js';
import { VmFirewallPanel } from './vm-firewall-panel.js';
import { useVm, vmsQueryKey } from './vm-queries.js';
import { isVmSettled, powerStateLabel, vmStatusLabel, vmStatusTone, type PendingAction } from './vm-state.js';

export function VmDetailPage() {
  const { vmId = '' } = useParams();
  const [pending, setPending] = useState<PendingAction>();
  const vm = useVm(vmId, pending);
  return (
    <QueryState query={vm} loadingLabel="Loading the VM…">
      {({ virtualMachine }) => <VmDetail vm={virtualMachine} pending={pending} onPending={setPending} />}
    </QueryState>
  );
}

function VmDetail({
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
  const navigate = useNavigate();
  const { announce } = useAnnouncer();
  const now = Date.now();
  const settled = isVmSettled(vm, pending, now);
  const deleted = vm.provisioningState === 'DELETED' || vm.provisioningState === 'DELETING';

  const remove = async () => {
    await api.delete(apiPath`/v1/virtual-machines/${vm.id}`);
    announce(`Deleting ${vm.hostname}.`);
    await queryClient.invalidateQueries({ queryKey: vmsQueryKey });
    void navigate(paths.vms);
  };

  return (
    <Page
      title={vm.hostname}
      description={`${vm.planCode} from ${vm.providerName}`}
      actions={<Link to={paths.vms}>All VMs</Link>}
    >
      <Section title="Status" id="status">
        <div className="vm-status">
          <span id="vm-status-label">VM status</span>{' '}
          <span role="status" aria-labelledby="vm-status-label" data-testid="vm-status">
            <StatusBadge tone={vmStatusTone(vm, !settled)}>{vmStatusLabel(vm, pending, now)}</StatusBadge>
          </span>
        </div>
        {vm.statusMessage !== '' && (
          <p className={vm.provisioningState === 'FAILED' ? 'form-error' : 'muted'}>{vm.statusMessage}</p>
        )}
        <p className="muted">
          Power reported by the hypervisor: {powerStateLabel(vm.powerState)}
          {vm.powerStateTime !== null && ` (${formatAgo(vm.powerStateTime, now)})`}
        </p>
        {!deleted && (
          <div className="button-row">
            <PowerControls vm={vm} pending={pending} onPending={onPending} />
            <ConfirmButton
              title={`Delete ${vm.hostname}?`}
              body={
                <p>The VM and its disks are destroyed and its addresses given back. This cannot be undone.</p>
              }
              confirmLabel="Delete permanently"
              onConfirm={remove}
            >
              Delete VM
            </ConfirmButton>
          </div>
        )}
      </Section>
      <Section title="Details" id="details">
        <dl className="facts">
          <dt>Plan</dt>
          <dd>
            <code>{vm.planCode}</code>
          </dd>
          <dt>Provider</dt>
          <dd>{vm.providerName}</dd>
          <dt>Location</dt>
          <dd>{vm.regionCity === '' ? '—' : `${vm.regionCity}, ${vm.regionCountry}`}</dd>
          <dt>Operating system</dt>
          <dd>{distroName(vm.distro)}</dd>
          <dt>vCPUs</dt>
          <dd>{vm.cpu}</dd>
          <dt>Memory</dt>
          <dd>{formatMiB(vm.memory)}</dd>
          <dt>Disk</dt>
          <dd>{formatGiB(vm.storage)}</dd>
          <dt>Tags</dt>
          <dd>{vm.tags.length === 0 ? 'None' : vm.tags.join(', ')}</dd>
          <dt>Created</dt>
          <dd>{formatDateTime(vm.createTime)}</dd>
        </dl>
      </Section>
      <Section title="Addresses" id="addresses">
        <dl className="facts">
          <dt>IPv4</dt>
          <dd>
            {vm.ipv4 === null ? 'None' : <code>{vm.ipv4}</code>}{' '}
            {vm.ipv4 !== null && <CopyButton text={vm.ipv4} label="Copy IPv4 address" />}
          </dd>
          <dt>IPv6</dt>
          <dd>
            {vm.ipv6 === null ? 'None' : <code>{vm.ipv6}</code>}{' '}
            {vm.ipv6 !== null && <CopyButton text={vm.ipv6} label="Copy IPv6 address" />}
          </dd>
        </dl>
      </Section>
      {!deleted && (
        <>
          <BandwidthPanel vmId={vm.id} />
          <VmCharts vmId={vm.id} />
          <VmFirewallPanel vm={vm} />
          <SnapshotsPanel vmId={vm.id} />
          <BackupsPanel vmId={vm.id} />
        </>
      )}
    </Page>
  );
}
