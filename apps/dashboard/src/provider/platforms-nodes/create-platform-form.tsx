import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type SubmitEvent } from 'react';

import { fieldErrorsOf } from '../../api/api-error.js';
import type { Agent, Platform } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { focusFirstInvalid } from '../../ui/focus-first-invalid.js';
import { FormError } from '../../ui/form-error.js';
import { SelectField, TextField } from '../../ui/form-field.js';
import { hasErrors, maxLength, required, validate, type FieldErrors } from '../../ui/form-validation.js';
import { Section } from '../../ui/page.js';
import { providerKeys } from '../provider-queries.js';

const EMPTY = { name: '', endpointUrl: '', agentId: '' };

function validatePlatform(values: typeof EMPTY): FieldErrors {
  return validate(values, {
    name: [required, maxLength(100)],
    endpointUrl: [
      required,
      maxLength(2048),
      (v) =>
        /^https:\/\/[^\s/]+/.test(v.trim())
          ? undefined
          : 'Enter the HTTPS address, like https://pve.example.com:8006.',
    ],
    agentId: [(v) => (v === '' ? 'Choose the agent that serves this endpoint.' : undefined)],
  });
}

export function CreatePlatformForm({ agents }: { readonly agents: readonly Agent[] }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useMutation({
    mutationFn: (body: typeof EMPTY) =>
      api.post<{ platform: Platform }>('/v1/platform', { ...body, driver: 'PLATFORM_DRIVER_PROXMOX' }),
    onSuccess: async ({ platform }) => {
      announce(`Platform ${platform.name} created. Add its nodes next.`);
      setValues(EMPTY);
      await queryClient.invalidateQueries({ queryKey: providerKeys.platforms });
    },
  });
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = validatePlatform(values);
    setErrors(found);
    if (hasErrors(found)) focusFirstInvalid(formRef.current);
    else create.mutate({ ...values, name: values.name.trim(), endpointUrl: values.endpointUrl.trim() });
  };
  const apiErrors = fieldErrorsOf(create.error);
  return (
    <Section title="Create a platform" id="create-platform">
      <form ref={formRef} onSubmit={submit} noValidate aria-label="Create platform">
        <FormError error={create.error} fields={['name', 'endpointUrl', 'agentId', 'driver']} />
        <TextField
          label="Platform name"
          value={values.name}
          onChange={(e) => {
            setValues({ ...values, name: e.target.value });
          }}
          error={errors.name ?? apiErrors.name}
          required
        />
        <TextField
          label="Endpoint URL"
          hint="Must match the endpoint configured on your agent."
          type="url"
          spellCheck={false}
          value={values.endpointUrl}
          onChange={(e) => {
            setValues({ ...values, endpointUrl: e.target.value });
          }}
          error={errors.endpointUrl ?? apiErrors.endpointUrl}
          required
        />
        <SelectField
          label="Driver"
          value="PLATFORM_DRIVER_PROXMOX"
          options={[{ value: 'PLATFORM_DRIVER_PROXMOX', label: 'Proxmox VE' }]}
          onChange={() => undefined}
          error={apiErrors.driver}
        />
        <SelectField
          label="Agent"
          value={values.agentId}
          placeholder={agents.length === 0 ? 'Create an agent first' : 'Choose an agent'}
          options={agents.map((a) => ({
            value: a.id,
            label: `${a.name}${a.provisioned ? '' : ' (not installed)'}`,
          }))}
          onChange={(e) => {
            setValues({ ...values, agentId: e.target.value });
          }}
          error={errors.agentId ?? apiErrors.agentId}
          required
        />
        <button type="submit" disabled={create.isPending}>
          Create platform
        </button>
      </form>
    </Section>
  );
}
