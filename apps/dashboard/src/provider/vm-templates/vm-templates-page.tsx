import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type SubmitEvent } from 'react';

import { apiPath } from '../../api/api-client.js';
import { fieldErrorsOf } from '../../api/api-error.js';
import type { CloudInitTemplate, HypervisorNode, VmTemplate } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { distroName, DISTROS } from '../../format/display-names.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { focusFirstInvalid } from '../../ui/focus-first-invalid.js';
import { FormError } from '../../ui/form-error.js';
import { SelectField, TextField } from '../../ui/form-field.js';
import {
  hasErrors,
  integerBetween,
  maxLength,
  required,
  validate,
  type FieldErrors,
} from '../../ui/form-validation.js';
import { Page, Section } from '../../ui/page.js';
import { EmptyState, QueryState } from '../../ui/query-state.js';
import { TableScroll } from '../../ui/table-scroll.js';
import { providerKeys, useCloudInitTemplates, useNodes, useVmTemplates } from '../provider-queries.js';

export function VmTemplatesPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const templates = useVmTemplates();
  const cloudInit = useCloudInitTemplates();
  const nodes = useNodes();
  const cloudInitName = (id: string) => cloudInit.data?.find((t) => t.id === id)?.name ?? '—';
  const remove = async (t: VmTemplate) => {
    await api.delete(apiPath`/v1/vmtemplate/${t.id}`);
    announce(`VM template ${t.name} deleted.`);
    await queryClient.invalidateQueries({ queryKey: providerKeys.vmTemplates });
  };
  return (
    <Page
      title="VM templates"
      description="Each node needs a Proxmox template VM (by VMID) for every distro its plans offer; orders clone it and apply the linked cloud-init template."
    >
      <Section title="Registered templates" id="templates">
        <QueryState query={templates} loadingLabel="Loading VM templates…">
          {(data) =>
            data.length === 0 ? (
              <EmptyState>
                <p>No VM templates yet. Register one per node and distro below.</p>
              </EmptyState>
            ) : (
              <TableScroll label="VM templates">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Distro</th>
                      <th scope="col">Node</th>
                      <th scope="col">Proxmox VMID</th>
                      <th scope="col">Cloud-init template</th>
                      <th scope="col">CPU type</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.map((t) => (
                      <tr key={t.id}>
                        <th scope="row">{t.name}</th>
                        <td>{distroName(t.distro)}</td>
                        <td>
                          {t.nodeName} <span className="muted">({t.platformName})</span>
                        </td>
                        <td>{t.templateId}</td>
                        <td>{cloudInitName(t.cloudInitTemplateId)}</td>
                        <td>{t.proxmoxCpuType === '' ? 'Node default' : t.proxmoxCpuType}</td>
                        <td>
                          <ConfirmButton
                            className="button-danger button-small"
                            label={`Delete VM template ${t.name} on ${t.nodeName}`}
                            title={`Delete VM template ${t.name}?`}
                            body={
                              <p>
                                Plans on {t.nodeName} can no longer offer {distroName(t.distro)} there.
                              </p>
                            }
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
            )
          }
        </QueryState>
      </Section>
      <CreateVmTemplateForm
        nodes={nodes.data ?? []}
        cloudInit={(cloudInit.data ?? []).filter((t) => !t.isTemplate)}
      />
    </Page>
  );
}

const EMPTY = {
  name: '',
  distro: '',
  nodeId: '',
  templateId: '',
  cloudInitTemplateId: '',
  proxmoxCpuType: '',
};

function CreateVmTemplateForm({
  nodes,
  cloudInit,
}: {
  readonly nodes: readonly HypervisorNode[];
  readonly cloudInit: readonly CloudInitTemplate[];
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      api.post<{ vmTemplate: VmTemplate }>('/v1/vmtemplate', body),
    onSuccess: async ({ vmTemplate }) => {
      announce(`VM template ${vmTemplate.name} registered on ${vmTemplate.nodeName}.`);
      setValues({ ...EMPTY, distro: values.distro, cloudInitTemplateId: values.cloudInitTemplateId });
      await queryClient.invalidateQueries({ queryKey: providerKeys.vmTemplates });
      await queryClient.invalidateQueries({ queryKey: providerKeys.preflight });
    },
  });
  const choose = (what: string) => (v: string) => (v === '' ? `Choose ${what}.` : undefined);
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = validate(values, {
      name: [required, maxLength(100)],
      distro: [choose('a distro')],
      nodeId: [choose('a node')],
      templateId: [required, integerBetween(100, 999_999_999)],
      cloudInitTemplateId: [choose('a cloud-init template')],
      proxmoxCpuType: [maxLength(64)],
    });
    setErrors(found);
    if (hasErrors(found)) focusFirstInvalid(formRef.current);
    else
      create.mutate({
        name: values.name.trim(),
        distro: values.distro,
        nodeId: values.nodeId,
        templateId: Number(values.templateId),
        cloudInitTemplateId: values.cloudInitTemplateId,
        ...(values.proxmoxCpuType.trim() !== '' && { proxmoxCpuType: values.proxmoxCpuType.trim() }),
      });
  };
  const apiErrors = fieldErrorsOf(create.error);
  const errorOf = (key: keyof typeof EMPTY) => errors[key] ?? apiErrors[key];
  return (
    <Section title="Register a VM template" id="create-template">
      <form
        ref={formRef}
        onSubmit={submit}
        noValidate
        aria-label="Register VM template"
        className="form-narrow"
      >
        <FormError error={create.error} fields={Object.keys(EMPTY)} />
        <TextField
          label="Template name"
          value={values.name}
          onChange={(e) => {
            setValues({ ...values, name: e.target.value });
          }}
          error={errorOf('name')}
          required
        />
        <SelectField
          label="Distro"
          value={values.distro}
          placeholder="Choose a distro"
          options={DISTROS.map((d) => ({ value: d, label: distroName(d) }))}
          onChange={(e) => {
            setValues({ ...values, distro: e.target.value });
          }}
          error={errorOf('distro')}
          required
        />
        <SelectField
          label="Node"
          value={values.nodeId}
          placeholder={nodes.length === 0 ? 'Add a node first' : 'Choose a node'}
          options={nodes.map((n) => ({ value: n.id, label: n.name }))}
          onChange={(e) => {
            setValues({ ...values, nodeId: e.target.value });
          }}
          error={errorOf('nodeId')}
          required
        />
        <TextField
          label="Proxmox template VMID"
          hint="The VMID of the template on that node (qm template)."
          inputMode="numeric"
          value={values.templateId}
          onChange={(e) => {
            setValues({ ...values, templateId: e.target.value });
          }}
          error={errorOf('templateId')}
          required
        />
        <SelectField
          label="Cloud-init template"
          value={values.cloudInitTemplateId}
          placeholder={
            cloudInit.length === 0 ? 'Create a cloud-init template first' : 'Choose a cloud-init template'
          }
          options={cloudInit.map((t) => ({ value: t.id, label: t.name }))}
          onChange={(e) => {
            setValues({ ...values, cloudInitTemplateId: e.target.value });
          }}
          error={errorOf('cloudInitTemplateId')}
          required
        />
        <TextField
          label="Proxmox CPU type"
          hint="Optional; empty uses the node's."
          value={values.proxmoxCpuType}
          onChange={(e) => {
            setValues({ ...values, proxmoxCpuType: e.target.value });
          }}
          error={errorOf('proxmoxCpuType')}
        />
        <button type="submit" disabled={create.isPending}>
          Register template
        </button>
      </form>
    </Section>
  );
}
