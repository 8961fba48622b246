import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import { Link, useNavigate } from 'react-router';

import { apiPath } from '../../api/api-client.js';
import { fieldErrorsOf } from '../../api/api-error.js';
import type { CloudInitTemplate } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { formatDateTime } from '../../format/dates.js';
import { paths } from '../../shell/navigation.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { FormError } from '../../ui/form-error.js';
import { SelectField, TextField } from '../../ui/form-field.js';
import { hasErrors, maxLength, required, validate, type FieldErrors } from '../../ui/form-validation.js';
import { Page, Section } from '../../ui/page.js';
import { EmptyState, QueryState } from '../../ui/query-state.js';
import { TableScroll } from '../../ui/table-scroll.js';
import { providerKeys, useCloudInitTemplates } from '../provider-queries.js';

/** A new template with nothing but the header cloud-init needs. */
const EMPTY_USER_DATA = '#cloud-config\nhostname: {{ hostname }}\n';
const FROM_SCRATCH = '';

export function CloudInitTemplatesPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const templates = useCloudInitTemplates();
  const remove = async (t: CloudInitTemplate) => {
    await api.delete(apiPath`/v1/cloudinittemplate/${t.id}`);
    announce(`Cloud-init template ${t.name} deleted.`);
    await queryClient.invalidateQueries({ queryKey: providerKeys.cloudInitTemplates });
  };
  return (
    <Page
      title="Cloud-init templates"
      description="User data compiled for each VM, with {{ name }} substitutions (hostname, keys, addresses, your variables and secrets). Start from a seed and adapt it to your images."
    >
      <QueryState query={templates} loadingLabel="Loading templates…">
        {(data) => {
          const own = data.filter((t) => !t.isTemplate);
          const seeds = data.filter((t) => t.isTemplate);
          return (
            <>
              <Section title="Your templates" id="own-templates">
                {own.length === 0 ? (
                  <EmptyState>
                    <p>No templates of your own yet. Copy a seed below.</p>
                  </EmptyState>
                ) : (
                  <TableScroll label="Your cloud-init templates">
                    <table>
                      <thead>
                        <tr>
                          <th scope="col">Name</th>
                          <th scope="col">Updated</th>
                          <th scope="col">
                            <span className="visually-hidden">Actions</span>
                          </th>
                        </tr>
                      </thead>
                      <tbody>
                        {own.map((t) => (
                          <tr key={t.id}>
                            <th scope="row">
                              <Link to={paths.cloudInitTemplate(t.id)}>{t.name}</Link>
                            </th>
                            <td>{formatDateTime(t.updateTime)}</td>
                            <td>
                              <ConfirmButton
                                className="button-danger button-small"
                                label={`Delete cloud-init template ${t.name}`}
                                title={`Delete ${t.name}?`}
                                body={<p>Templates that VM templates link to cannot be deleted.</p>}
                                confirmLabel="Delete template"
                                onConfirm={() => remove(t)}
                              >
                                Delete
                              </ConfirmButton>
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </TableScroll>
                )}
              </Section>
              <Section title="Seeds" id="seeds">
                <ul className="inline-list">
                  {seeds.map((s) => (
                    <li key={s.id}>
                      <Link to={paths.cloudInitTemplate(s.id)}>{s.name}</Link>
                    </li>
                  ))}
                </ul>
              </Section>
              <NewTemplateForm sources={data} />
            </>
          );
        }}
      </QueryState>
    </Page>
  );
}

function NewTemplateForm({ sources }: { readonly sources: readonly CloudInitTemplate[] }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { announce } = useAnnouncer();
  const [values, setValues] = useState({
    name: '',
    copyFromId: sources.find((s) => s.isTemplate)?.id ?? FROM_SCRATCH,
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useMutation({
    mutationFn: (body: Record<string, string>) =>
      api.post<{ cloudInitTemplate: CloudInitTemplate }>('/v1/cloudinittemplate', body),
    onSuccess: async ({ cloudInitTemplate }) => {
      announce(`Template ${cloudInitTemplate.name} created.`);
      await queryClient.invalidateQueries({ queryKey: providerKeys.cloudInitTemplates });
      void navigate(paths.cloudInitTemplate(cloudInitTemplate.id));
    },
  });
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = validate(values, { name: [required, maxLength(100)] });
    setErrors(found);
    if (hasErrors(found)) return;
    create.mutate(
      values.copyFromId === FROM_SCRATCH
        ? { name: values.name.trim(), userData: EMPTY_USER_DATA }
        : { name: values.name.trim(), copyFromId: values.copyFromId },
    );
  };
  const apiErrors = fieldErrorsOf(create.error);
  return (
    <Section title="New template" id="new-template">
      <form onSubmit={submit} noValidate aria-label="New cloud-init template" className="form-narrow">
        <FormError error={create.error} fields={['name', 'copyFromId']} />
        <TextField
          label="Template name"
          value={values.name}
          onChange={(e) => {
            setValues({ ...values, name: e.target.value });
          }}
          error={errors.name ?? apiErrors.name}
          required
        />
        <SelectField
          label="Start from"
          value={values.copyFromId}
          options={[
            ...sources.map((s) => ({ value: s.id, label: s.isTemplate ? s.name : `Copy of ${s.name}` })),
            { value: FROM_SCRATCH, label: 'An empty #cloud-config' },
          ]}
          onChange={(e) => {
            setValues({ ...values, copyFromId: e.target.value });
          }}
          error={apiErrors.copyFromId}
        />
        <button type="submit" disabled={create.isPending}>
          Create template
        </button>
      </form>
    </Section>
  );
}
