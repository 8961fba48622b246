import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type SubmitEvent } from 'react';
import { Link } from 'react-router';

import { fieldErrorsOf } from '../api/api-error.js';
import type { RegisterAnswer } from '../api/api-resources.js';
import { paths } from '../shell/navigation.js';
import { focusFirstInvalid } from '../ui/focus-first-invalid.js';
import { FormError } from '../ui/form-error.js';
import { TextField } from '../ui/form-field.js';
import { hasErrors, type FieldErrors } from '../ui/form-validation.js';
import { Page } from '../ui/page.js';
import { PASSWORD_MIN_LENGTH, validateRegistration, type RegistrationValues } from './account-forms.js';
import { OrganizationTypeChoice } from './organization-type-choice.js';
import { useSession } from './session-context.js';

const EMPTY: RegistrationValues = {
  email: '',
  password: '',
  confirmPassword: '',
  organizationName: '',
  organizationType: '',
};

export function RegisterPage() {
  const { api, signIn } = useSession();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});

  const register = useMutation({
    mutationFn: (body: Omit<RegistrationValues, 'confirmPassword'>) =>
      api.post<RegisterAnswer>('/v1/auth/register', body),
    // Signed in, the registration route sends the user to the start page of the new organisation's type.
    onSuccess: (answer) => {
      signIn({ token: answer.token, organizationId: answer.organization.id, email: answer.user.email });
    },
  });

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = validateRegistration(values);
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstInvalid(formRef.current);
      return;
    }
    register.mutate({
      email: values.email.trim(),
      password: values.password,
      organizationName: values.organizationName.trim(),
      organizationType: values.organizationType,
    });
  };

  const apiErrors = fieldErrorsOf(register.error);
  const set = (field: keyof RegistrationValues) => (value: string) => {
    setValues({ ...values, [field]: value });
  };
  return (
    <div className="auth-page">
      <main id="main" className="auth-card">
        <Page title="Create your NodeRings account">
          <form ref={formRef} onSubmit={submit} noValidate aria-label="Create account">
            <FormError
              error={register.error}
              fields={['email', 'password', 'organizationName', 'organizationType']}
            />
            <OrganizationTypeChoice
              value={values.organizationType}
              onChange={set('organizationType')}
              error={errors.organizationType ?? apiErrors.organizationType}
            />
            <TextField
              label="Organisation name"
              autoComplete="organization"
              value={values.organizationName}
              onChange={(e) => {
                set('organizationName')(e.target.value);
              }}
              error={errors.organizationName ?? apiErrors.organizationName}
              required
            />
            <TextField
              label="Email"
              type="email"
              autoComplete="email"
              value={values.email}
              onChange={(e) => {
                set('email')(e.target.value);
              }}
              error={errors.email ?? apiErrors.email}
              required
            />
            <TextField
              label="Password"
              type="password"
              autoComplete="new-password"
              hint={`At least ${PASSWORD_MIN_LENGTH} characters: a few words of your own. Common passwords, patterns like 12345, and your email or organisation name are refused.`}
              value={values.password}
              onChange={(e) => {
                set('password')(e.target.value);
              }}
              error={errors.password ?? apiErrors.password}
              required
            />
            <TextField
              label="Confirm password"
              type="password"
              autoComplete="new-password"
              value={values.confirmPassword}
              onChange={(e) => {
                set('confirmPassword')(e.target.value);
              }}
              error={errors.confirmPassword}
              required
            />
            <button type="submit" disabled={register.isPending}>
              {register.isPending ? 'Creating account…' : 'Create account'}
            </button>
          </form>
          <p>
            Already have an account? <Link to={paths.login}>Sign in</Link>
          </p>
        </Page>
      </main>
    </div>
  );
}
