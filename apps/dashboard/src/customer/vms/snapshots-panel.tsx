import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';

import { apiPath } from '../../api/api-client.js';
import { fieldErrorsOf } from '../../api/api-error.js';
import type { Snapshot } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { formatDateTime } from '../../format/dates.js';
import { enumName } from '../../format/display-names.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { FormError } from '../../ui/form-error.js';
import { TextField } from '../../ui/form-field.js';
import { Section } from '../../ui/page.js';
import { EmptyState, QueryState } from '../../ui/query-state.js';
import { TableScroll } from '../../ui/table-scroll.js';

const SNAPSHOT_POLL_MS = 3_000;

function inProgress(s: Snapshot): boolean {
  return (
    s.operationStatus === 'SNAPSHOT_OPERATION_STATUS_PENDING' ||
    s.operationStatus === 'SNAPSHOT_OPERATION_STATUS_PROCESSING'
  );
}

export function SnapshotsPanel({ vmId }: { readonly vmId: string }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const key = ['vms', vmId, 'snapshots'];
  const snapshots = useQuery({
    queryKey: key,
    queryFn: () =>
      api.get<{ snapshots: Snapshot[] }>(apiPath`/v1/virtual-machines/${vmId}/snapshots`, { pageSize: 100 }),
    // Pending snapshots have no status of their own yet; only the deleted are left out.
    select: (data) => ({
      snapshots: data.snapshots.filter((s) => s.snapshotStatus !== 'SNAPSHOT_STATUS_DELETED'),
    }),
    refetchInterval: (query) =>
      query.state.data?.snapshots.some(inProgress) === true ? SNAPSHOT_POLL_MS : false,
  });
  const [description, setDescription] = useState('');
  const create = useMutation({
    mutationFn: () =>
      api.post<{ snapshot: Snapshot }>(apiPath`/v1/virtual-machines/${vmId}/snapshots`, {
        description: description.trim(),
      }),
    onSuccess: async ({ snapshot }) => {
      announce(`Snapshot ${snapshot.name} requested.`);
      setDescription('');
      await queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const remove = async (snapshot: Snapshot) => {
    await api.delete(apiPath`/v1/virtual-machines/${vmId}/snapshots/${snapshot.id}`);
    announce(`Snapshot ${snapshot.name} deleted.`);
    await queryClient.invalidateQueries({ queryKey: key });
  };
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Section title="Snapshots" id="snapshots">
      <QueryState query={snapshots} loadingLabel="Loading snapshots…">
        {(data) =>
          data.snapshots.length === 0 ? (
            <EmptyState>
              <p>No snapshots yet.</p>
            </EmptyState>
          ) : (
            <TableScroll label="Snapshots">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Description</th>
                    <th scope="col">Taken</th>
                    <th scope="col">State</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.snapshots.map((s) => (
                    <tr key={s.id}>
                      <th scope="row">{s.name}</th>
                      <td>{s.description === '' ? '—' : s.description}</td>
                      <td>{formatDateTime(s.createdAt)}</td>
                      <td>
                        {enumName(s.operationStatus, 'SNAPSHOT_OPERATION_STATUS_')}
                        {s.statusMessage !== '' && <span className="muted"> · {s.statusMessage}</span>}
                      </td>
                      <td>
                        <ConfirmButton
                          className="button-danger button-small"
                          label={`Delete snapshot ${s.name}`}
                          title={`Delete snapshot ${s.name}?`}
                          body={<p>The snapshot is removed from the VM. This cannot be undone.</p>}
                          confirmLabel="Delete snapshot"
                          onConfirm={() => remove(s)}
                        >
                          Delete
                        </ConfirmButton>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )
        }
      </QueryState>
      <form onSubmit={submit} noValidate aria-label="Create snapshot" className="form-inline subform">
        <FormError error={create.error} fields={['description']} />
        <TextField
          label="Snapshot description"
          hint="Optional."
          maxLength={1024}
          value={description}
          onChange={(e) => {
            setDescription(e.target.value);
          }}
          error={fieldErrorsOf(create.error).description}
        />
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Requesting…' : 'Create snapshot'}
        </button>
      </form>
    </Section>
  );
}
