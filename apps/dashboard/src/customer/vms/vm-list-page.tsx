import { Link } from 'react-router';

import { formatDateTime } from '../../format/dates.js';
import { distroName } from '../../format/display-names.js';
import { paths } from '../../shell/navigation.js';
import { Page } from '../../ui/page.js';
import { EmptyState, QueryState } from '../../ui/query-state.js';
import { StatusBadge } from '../../ui/status-badge.js';
import { TableScroll } from '../../ui/table-scroll.js';
import { useVms } from './vm-queries.js';
import { vmStatusLabel, vmStatusTone } from './vm-state.js';

export function VmListPage() {
  const vms = useVms();
  const now = Date.now();
  return (
    <Page
      title="My VMs"
      actions={
        <Link className="button-link" to={paths.marketplace}>
          Order a VM
        </Link>
      }
    >
      <QueryState query={vms} loadingLabel="Loading your VMs…">
        {(data) =>
          data.virtualMachines.length === 0 ? (
            <EmptyState>
              <p>You have no VMs yet.</p>
              <p>
                <Link to={paths.marketplace}>Browse the marketplace</Link> to order one.
              </p>
            </EmptyState>
          ) : (
            <TableScroll label="Virtual machines">
              <table>
                <caption className="visually-hidden">Your virtual machines</caption>
                <thead>
                  <tr>
                    <th scope="col">Hostname</th>
                    <th scope="col">Status</th>
                    <th scope="col">IPv4</th>
                    <th scope="col">Plan</th>
                    <th scope="col">Provider</th>
                    <th scope="col">Location</th>
                    <th scope="col">Operating system</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {data.virtualMachines.map((vm) => (
                    <tr key={vm.id}>
                      <th scope="row">
                        <Link to={paths.vm(vm.id)}>{vm.hostname}</Link>
                      </th>
                      <td>
                        <StatusBadge tone={vmStatusTone(vm, false)}>
                          {vmStatusLabel(vm, undefined, now)}
                        </StatusBadge>
                      </td>
                      <td>{vm.ipv4 ?? '—'}</td>
                      <td>
                        <code>{vm.planCode}</code>
                      </td>
                      <td>{vm.providerName}</td>
                      <td>{vm.regionCity === '' ? '—' : `${vm.regionCity}, ${vm.regionCountry}`}</td>
                      <td>{distroName(vm.distro)}</td>
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
