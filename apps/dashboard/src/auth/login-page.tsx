import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type SubmitEvent } from 'react';
import { Link } from 'react-router';

import { fieldErrorsOf } from '../api/api-error.js';
import type { LoginAnswer } from '../api/api-resources.js';
import { paths } from '../shell/navigation.js';
import { focusFirstInvalid } from '../ui/focus-first-invalid.js';
import { FormError } from '../ui/form-error.js';
import { TextField } from '../ui/form-field.js';
import { hasErrors, type FieldErrors } from '../ui/form-validation.js';
import { Page } from '../ui/page.js';
import { validateSignIn } from './account-forms.js';
import { useSession } from './session-context.js';

export function LoginPage() {
  const { api, signIn, signedOutReason } = useSession();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});

  const login = useMutation({
    mutationFn: (body: typeof values) => api.post<LoginAnswer>('/v1/auth/login', body),
    // Signed in, the sign-in route itself sends the user on (back where they were going).
    onSuccess: (answer) => {
      signIn({ token: answer.token, organizationId: answer.organizationId, email: values.email.trim() });
    },
  });

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = validateSignIn(values);
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstInvalid(formRef.current);
      return;
    }
    login.mutate({ email: values.email.trim(), password: values.password });
  };

  const apiErrors = fieldErrorsOf(login.error);
  return (
    <div className="auth-page">
      <main id="main" className="auth-card">
        <Page title="Sign in to NodeRings">
          {signedOutReason === 'expired' && (
            <p className="notice" role="status">
              Your session has ended. Sign in again to continue.
            </p>
          )}
          {signedOutReason === 'signed-out' && (
            <p className="notice" role="status">
              You are signed out.
            </p>
          )}
          <form ref={formRef} onSubmit={submit} noValidate aria-label="Sign in">
            <FormError error={login.error} fields={['email', 'password']} />
            <TextField
              label="Email"
              type="email"
              autoComplete="username"
              value={values.email}
              onChange={(e) => {
                setValues({ ...values, email: e.target.value });
              }}
              error={errors.email ?? apiErrors.email}
              required
            />
            <TextField
              label="Password"
              type="password"
              autoComplete="current-password"
              value={values.password}
              onChange={(e) => {
                setValues({ ...values, password: e.target.value });
              }}
              error={errors.password ?? apiErrors.password}
              required
            />
            <button type="submit" disabled={login.isPending}>
              {login.isPending ? 'Signing in…' : 'Sign in'}
            </button>
          </form>
          <p>
            New to NodeRings? <Link to={paths.register}>Create an account</Link>
          </p>
        </Page>
      </main>
    </div>
  );
}
