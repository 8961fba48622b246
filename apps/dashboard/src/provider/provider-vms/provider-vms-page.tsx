import { formatGiB, formatMiB } from '../../format/bytes.js';
import { formatDateTime } from '../../format/dates.js';
import { vmStatusLabel, vmStatusTone } from '../../customer/vms/vm-state.js';
import { Page } from '../../ui/page.js';
import { EmptyState, QueryState } from '../../ui/query-state.js';
import { StatusBadge } from '../../ui/status-badge.js';
import { TableScroll } from '../../ui/table-scroll.js';
import { useNodes, useProviderVms } from '../provider-queries.js';

/** Customers' VMs on this provider's infrastructure: where they run and what they hold, no customer secret. */
export function ProviderVmsPage() {
  const vms = useProviderVms({ poll: true });
  const nodes = useNodes();
  const nodeName = (id: string | null) =>
    id === null ? 'Not placed' : (nodes.data?.find((n) => n.id === id)?.name ?? id);
  const now = Date.now();
  return (
    <Page
      title="Customer VMs"
      description="Every VM customers run on your infrastructure, with its node, Proxmox VMID and MAC."
    >
      <QueryState query={vms} loadingLabel="Loading VMs…">
        {(data) =>
          data.length === 0 ? (
            <EmptyState>
              <p>No customer VMs yet. They appear here as soon as a customer orders one of your plans.</p>
            </EmptyState>
          ) : (
            <TableScroll label="Customer VMs">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Hostname</th>
                    <th scope="col">Status</th>
                    <th scope="col">Node</th>
                    <th scope="col">VMID</th>
                    <th scope="col">MAC</th>
                    <th scope="col">IPv4</th>
                    <th scope="col">IPv6</th>
                    <th scope="col">Plan</th>
                    <th scope="col">Size</th>
                    <th scope="col">Customer</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((vm) => (
                    <tr key={vm.id}>
                      <th scope="row">
                        {vm.hostname}
                        <div className="muted">
                          <code>NR-{vm.id}</code>
                        </div>
                      </th>
                      <td>
                        <StatusBadge tone={vmStatusTone(vm, false)}>
                          {vmStatusLabel(vm, undefined, now)}
                        </StatusBadge>
                        {vm.statusMessage !== '' && <div className="muted">{vm.statusMessage}</div>}
                      </td>
                      <td>{nodeName(vm.nodeId)}</td>
                      <td>{vm.vmid}</td>
                      <td>
                        <code>{vm.macAddress}</code>
                      </td>
                      <td>{vm.ipv4 ?? '—'}</td>
                      <td>{vm.ipv6 ?? '—'}</td>
                      <td>
                        <code>{vm.planCode}</code>
                      </td>
                      <td>
                        {vm.cpu} vCPU · {formatMiB(vm.memory)} · {formatGiB(vm.storage)}
                      </td>
                      <td>
                        <code>{vm.clientOrganizationId.slice(0, 8)}</code>
                      </td>
                      <td>{formatDateTime(vm.createTime)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )
        }
      </QueryState>
    </Page>
  );
}
