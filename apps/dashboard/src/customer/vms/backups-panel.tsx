import { useQuery } from '@tanstack/react-query';

import { apiPath } from '../../api/api-client.js';
import type { Backup } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { formatBytes } from '../../format/bytes.js';
import { formatDateTime } from '../../format/dates.js';
import { enumName } from '../../format/display-names.js';
import { Section } from '../../ui/page.js';
import { EmptyState, QueryState } from '../../ui/query-state.js';
import { TableScroll } from '../../ui/table-scroll.js';

/** Backups are made by the provider's schedule (the backup addon); the customer sees what exists. */
export function BackupsPanel({ vmId }: { readonly vmId: string }) {
  const api = useApi();
  const backups = useQuery({
    queryKey: ['vms', vmId, 'backups'],
    queryFn: () =>
      api.get<{ backups: Backup[] }>(apiPath`/v1/virtual-machines/${vmId}/backups`, { pageSize: 100 }),
    // Pruned (expired) and deleted backups cannot be restored: only what exists is listed.
    select: (data) => ({
      backups: data.backups.filter(
        (b) => b.backupStatus !== 'BACKUP_STATUS_DELETED' && b.backupStatus !== 'BACKUP_STATUS_EXPIRED',
      ),
    }),
  });
  return (
    <Section title="Backups" id="backups">
      <QueryState query={backups} loadingLabel="Loading backups…">
        {(data) =>
          data.backups.length === 0 ? (
            <EmptyState>
              <p>
                No backups. Scheduled backups appear here once the provider's backup add-on runs for this VM.
              </p>
            </EmptyState>
          ) : (
            <TableScroll label="Backups">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Made</th>
                    <th scope="col">Size</th>
                    <th scope="col">State</th>
                  </tr>
                </thead>
                <tbody>
                  {data.backups.map((b) => (
                    <tr key={b.id}>
                      <th scope="row">{b.name}</th>
                      <td>{formatDateTime(b.createdAt)}</td>
                      <td>{b.sizeBytes > 0 ? formatBytes(b.sizeBytes) : '—'}</td>
                      <td>
                        {enumName(b.operationStatus, 'BACKUP_OPERATION_STATUS_')}
                        {b.statusMessage !== '' && <span className="muted"> · {b.statusMessage}</span>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )
        }
      </QueryState>
    </Section>
  );
}
