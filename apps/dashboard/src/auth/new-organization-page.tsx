import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type SubmitEvent } from 'react';
import { useNavigate } from 'react-router';

import { fieldErrorsOf } from '../api/api-error.js';
import type { Organization } from '../api/api-resources.js';
import { homeFor } from '../shell/navigation.js';
import { focusFirstInvalid } from '../ui/focus-first-invalid.js';
import { FormError } from '../ui/form-error.js';
import { TextField } from '../ui/form-field.js';
import { hasErrors, maxLength, required, validate, type FieldErrors } from '../ui/form-validation.js';
import { Page } from '../ui/page.js';
import { ORGANIZATIONS_QUERY_KEY } from './current-organization.js';
import { OrganizationTypeChoice } from './organization-type-choice.js';
import { useSession } from './session-context.js';

/** A further organisation for the signed-in user (one may sell with one and buy with another). */
export function NewOrganizationPage({ firstOne = false }: { readonly firstOne?: boolean }) {
  const { api, switchOrganization } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState({ name: '', type: '' });
  const [errors, setErrors] = useState<FieldErrors>({});

  const create = useMutation({
    mutationFn: (body: { name: string; type: string }) =>
      api.post<{ organization: Organization }>('/v1/organizations', body),
    onSuccess: async ({ organization }) => {
      switchOrganization(organization.id);
      await queryClient.invalidateQueries({ queryKey: ORGANIZATIONS_QUERY_KEY });
      void navigate(homeFor(organization.type));
    },
  });

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = validate(values, {
      name: [required, maxLength(200)],
      type: [(v) => (v === '' ? 'Choose whether you sell or buy VMs.' : undefined)],
    });
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstInvalid(formRef.current);
      return;
    }
    create.mutate({ name: values.name.trim(), type: values.type });
  };

  const apiErrors = fieldErrorsOf(create.error);
  return (
    <Page
      title={firstOne ? 'Create your organisation' : 'New organisation'}
      description={
        firstOne
          ? 'Your account belongs to no organisation yet. Create one to start.'
          : 'Each organisation has its own VMs, keys and members; switch between them in the banner.'
      }
    >
      <form ref={formRef} onSubmit={submit} noValidate aria-label="New organisation" className="form-narrow">
        <FormError error={create.error} fields={['name', 'type']} />
        <OrganizationTypeChoice
          value={values.type}
          onChange={(type) => {
            setValues({ ...values, type });
          }}
          error={errors.type ?? apiErrors.type}
        />
        <TextField
          label="Organisation name"
          value={values.name}
          onChange={(e) => {
            setValues({ ...values, name: e.target.value });
          }}
          error={errors.name ?? apiErrors.name}
          required
        />
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create organisation'}
        </button>
      </form>
    </Page>
  );
}
