import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type SubmitEvent } from 'react';

import { apiPath } from '../../api/api-client.js';
import { fieldErrorsOf } from '../../api/api-error.js';
import type { SshKey } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { formatDateTime } from '../../format/dates.js';
import { sshKeyTypeName } from '../../format/display-names.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { focusFirstInvalid } from '../../ui/focus-first-invalid.js';
import { FormError } from '../../ui/form-error.js';
import { TextAreaField, TextField } from '../../ui/form-field.js';
import { hasErrors, maxLength, required, validate, type FieldErrors } from '../../ui/form-validation.js';
import { Page, Section } from '../../ui/page.js';
import { EmptyState, QueryState } from '../../ui/query-state.js';
import { TableScroll } from '../../ui/table-scroll.js';
import { SSH_KEYS_QUERY_KEY, useSshKeys } from './ssh-key-queries.js';

/** The key types the API accepts, as a public key line starts. */
const KEY_LINE = /^(ssh-rsa|ssh-ed25519|ecdsa-sha2-nistp(256|384|521)) [A-Za-z0-9+/]+=*( .*)?$/;

function validateKey(values: { name: string; publicKey: string }): FieldErrors {
  return validate(values, {
    name: [required, maxLength(100)],
    publicKey: [
      required,
      maxLength(16_384),
      (v) =>
        KEY_LINE.test(v.trim())
          ? undefined
          : 'Paste one public key line, starting with ssh-ed25519, ssh-rsa or ecdsa-sha2-…',
    ],
  });
}

export function SshKeysPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const keys = useSshKeys();
  const remove = async (key: SshKey) => {
    await api.delete(apiPath`/v1/ssh-keys/${key.id}`);
    announce(`SSH key ${key.name} deleted.`);
    await queryClient.invalidateQueries({ queryKey: SSH_KEYS_QUERY_KEY });
  };
  return (
    <Page
      title="SSH keys"
      description="Public keys you can put on new VMs when you order them. Existing VMs keep the keys they were created with."
    >
      <Section title="Your keys" id="keys">
        <QueryState query={keys} loadingLabel="Loading SSH keys…">
          {(data) =>
            data.sshKeys.length === 0 ? (
              <EmptyState>
                <p>No SSH keys yet. Add one below.</p>
              </EmptyState>
            ) : (
              <TableScroll label="SSH keys">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Type</th>
                      <th scope="col">Fingerprint</th>
                      <th scope="col">Added</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.sshKeys.map((key) => (
                      <tr key={key.id}>
                        <th scope="row">{key.name}</th>
                        <td>{sshKeyTypeName(key.keyType)}</td>
                        <td>
                          <code>{key.fingerprint}</code>
                        </td>
                        <td>{formatDateTime(key.createTime)}</td>
                        <td>
                          <ConfirmButton
                            className="button-danger button-small"
                            label={`Delete SSH key ${key.name}`}
                            title={`Delete SSH key ${key.name}?`}
                            body={<p>New VMs can no longer get this key. VMs that have it keep it.</p>}
                            confirmLabel="Delete key"
                            onConfirm={() => remove(key)}
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
      </Section>
      <AddKeyForm />
    </Page>
  );
}

function AddKeyForm() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState({ name: '', publicKey: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const add = useMutation({
    mutationFn: (body: typeof values) => api.post<{ sshKey: SshKey }>('/v1/ssh-keys', body),
    onSuccess: async ({ sshKey }) => {
      announce(`SSH key ${sshKey.name} added.`);
      setValues({ name: '', publicKey: '' });
      await queryClient.invalidateQueries({ queryKey: SSH_KEYS_QUERY_KEY });
    },
  });
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = validateKey(values);
    setErrors(found);
    if (hasErrors(found)) focusFirstInvalid(formRef.current);
    else add.mutate({ name: values.name.trim(), publicKey: values.publicKey.trim() });
  };
  const apiErrors = fieldErrorsOf(add.error);
  return (
    <Section title="Add a key" id="add-key">
      <form ref={formRef} onSubmit={submit} noValidate aria-label="Add SSH key" className="form-narrow">
        <FormError error={add.error} fields={['name', 'publicKey']} />
        <TextField
          label="Key name"
          hint="Where the key lives, like laptop."
          value={values.name}
          onChange={(e) => {
            setValues({ ...values, name: e.target.value });
          }}
          error={errors.name ?? apiErrors.name}
          required
        />
        <TextAreaField
          label="Public key"
          hint="The contents of your .pub file, like ~/.ssh/id_ed25519.pub."
          rows={4}
          spellCheck={false}
          value={values.publicKey}
          onChange={(e) => {
            setValues({ ...values, publicKey: e.target.value });
          }}
          error={errors.publicKey ?? apiErrors.publicKey}
          required
        />
        <button type="submit" disabled={add.isPending}>
          {add.isPending ? 'Adding…' : 'Add SSH key'}
        </button>
      </form>
    </Section>
  );
}
