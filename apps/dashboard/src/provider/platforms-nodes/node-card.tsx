import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiPath } from '../../api/api-client.js';
import { messageOf } from '../../api/api-error.js';
import type { HypervisorNode, ProviderVirtualMachine, Region } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { formatBytes } from '../../format/bytes.js';
import { formatDateTime } from '../../format/dates.js';
import { enumName, serviceStatusName } from '../../format/display-names.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { CheckboxField } from '../../ui/form-field.js';
import { StatusBadge } from '../../ui/status-badge.js';
import { providerKeys } from '../provider-queries.js';
import { CapacityMeter } from './capacity-bar.js';
import { capacityBars, soldOnNode } from './node-capacity.js';
import { NodeBlockers } from './node-blockers.js';

export function NodeCard({
  node,
  region,
  vms,
}: {
  readonly node: HypervisorNode;
  readonly region: Region | undefined;
  readonly vms: readonly ProviderVirtualMachine[];
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const maintenance = useMutation({
    mutationFn: (maintenanceMode: boolean) =>
      api.patch<{ node: HypervisorNode }>(apiPath`/v1/node/${node.id}`, { maintenanceMode }),
    onSuccess: async ({ node: updated }) => {
      announce(
        updated.maintenanceMode
          ? `${updated.name} is in maintenance: it takes no new VMs.`
          : `${updated.name} is out of maintenance.`,
      );
      await queryClient.invalidateQueries({ queryKey: providerKeys.nodes });
      await queryClient.invalidateQueries({ queryKey: providerKeys.preflight });
    },
  });
  const remove = async () => {
    await api.delete(apiPath`/v1/node/${node.id}`);
    announce(`Node ${node.name} deleted.`);
    await queryClient.invalidateQueries({ queryKey: providerKeys.nodes });
  };
  const online = node.serviceStatus === 'SERVICE_STATUS_ONLINE';
  const headingId = `node-${node.id}`;
  const vmCount = vms.filter((vm) => vm.nodeId === node.id && vm.provisioningState !== 'DELETED').length;
  return (
    <li className="card node-card" aria-labelledby={headingId}>
      <h4 id={headingId}>
        Node {node.name}{' '}
        <StatusBadge tone={node.maintenanceMode ? 'busy' : online ? 'good' : 'bad'}>
          {node.maintenanceMode ? 'Maintenance' : serviceStatusName(node.serviceStatus)}
        </StatusBadge>
      </h4>
      <CheckboxField
        label={`Maintenance mode for ${node.name}`}
        hint="In maintenance, NodeRings places no new VMs on the node."
        checked={node.maintenanceMode}
        disabled={maintenance.isPending}
        onChange={(e) => {
          maintenance.mutate(e.target.checked);
        }}
      />
      {maintenance.error !== null && (
        <p className="form-error" role="alert">
          {messageOf(maintenance.error)}
        </p>
      )}
      <h5>
        Capacity ({vmCount} {vmCount === 1 ? 'VM' : 'VMs'})
      </h5>
      {capacityBars(node, soldOnNode(node.id, vms)).map((bar) => (
        <CapacityMeter key={bar.resource} bar={bar} />
      ))}
      {node.inventory.storagePools.length > 0 && (
        <p className="muted">
          Storage pools:{' '}
          {node.inventory.storagePools
            .map(
              (p) => `${p.storageId} ${formatBytes(p.allocatedBytes)} used of ${formatBytes(p.totalBytes)}`,
            )
            .join('; ')}
          .
        </p>
      )}
      <details>
        <summary>Settings of {node.name}</summary>
        <dl className="facts">
          <dt>Region</dt>
          <dd>{region === undefined ? '—' : `${region.cityCountry.cityName} (${region.datacenter.name})`}</dd>
          <dt>VMID seed</dt>
          <dd>{node.vmidSeed}</dd>
          <dt>VM disk storage</dt>
          <dd>{node.vmStorageDestination}</dd>
          <dt>Backup storage</dt>
          <dd>{node.backupStorageDestination}</dd>
          <dt>Backup compression</dt>
          <dd>{enumName(node.backupStorageCompression, 'BACKUP_STORAGE_COMPRESSION_')}</dd>
          <dt>Compute type</dt>
          <dd>{enumName(node.computeType, 'NODE_COMPUTE_TYPE_')}</dd>
          <dt>CPU overallocation</dt>
          <dd>{node.cpuOverallocatePercent} %</dd>
          <dt>Memory overallocation</dt>
          <dd>{node.memoryOverallocatePercent} %</dd>
          <dt>Storage overallocation</dt>
          <dd>{node.storageOverallocatePercent} %</dd>
          <dt>Network bridge</dt>
          <dd>{node.networkBridge}</dd>
          <dt>Net device</dt>
          <dd>{node.networkName}</dd>
          <dt>NIC model</dt>
          <dd>{node.networkModel}</dd>
          <dt>VLAN</dt>
          <dd>{node.networkVlanId === 0 ? 'Untagged' : node.networkVlanId}</dd>
          <dt>MAC prefix</dt>
          <dd>
            <code>{node.macAddressPrefix}</code>
          </dd>
          <dt>Proxmox CPU type</dt>
          <dd>{node.proxmoxCpuType}</dd>
          <dt>Created</dt>
          <dd>{formatDateTime(node.createTime)}</dd>
          <dt>Updated</dt>
          <dd>{formatDateTime(node.updateTime)}</dd>
        </dl>
      </details>
      <ConfirmButton
        className="button-danger button-small"
        label={`Delete node ${node.name}`}
        title={`Delete node ${node.name}?`}
        body={<NodeBlockers node={node} />}
        confirmLabel="Delete node"
        onConfirm={remove}
      >
        Delete node
      </ConfirmButton>
    </li>
  );
}
