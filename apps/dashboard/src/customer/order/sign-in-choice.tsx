import { useId } from 'react';
import { Link } from 'react-router';

import type { SshKey } from '../../api/api-resources.js';
import { paths } from '../../shell/navigation.js';
import { TextField } from '../../ui/form-field.js';
import { LoadError, Loading } from '../../ui/query-state.js';
import type { OrderValues, SignInMethod } from './order-form.js';

type SignInValues = Pick<OrderValues, 'signInMethod' | 'sshKeyIds' | 'password' | 'confirmPassword'>;

/** How the customer will sign in to the new VM: with their SSH keys, or with a root password. */
export function SignInChoice({
  values,
  onChange,
  keys,
  errors,
  passwordMinLength,
}: {
  readonly values: SignInValues;
  readonly onChange: (next: Partial<SignInValues>) => void;
  readonly keys: { data: { sshKeys: SshKey[] } | undefined; error: unknown; refetch: () => unknown };
  readonly errors: {
    sshKeyIds?: string | undefined;
    password?: string | undefined;
    confirmPassword?: string | undefined;
  };
  readonly passwordMinLength: number;
}) {
  const id = useId();
  const methods: readonly { value: SignInMethod; label: string }[] = [
    { value: 'ssh-key', label: 'SSH key' },
    { value: 'password', label: 'Password' },
  ];
  return (
    <>
      <fieldset className="field choice-group">
        <legend>Sign in with</legend>
        {methods.map((m) => (
          <div className="choice" key={m.value}>
            <input
              type="radio"
              id={`${id}-${m.value}`}
              name={`${id}-method`}
              checked={values.signInMethod === m.value}
              onChange={() => {
                onChange({ signInMethod: m.value });
              }}
            />
            <label htmlFor={`${id}-${m.value}`}>{m.label}</label>
          </div>
        ))}
      </fieldset>
      {values.signInMethod === 'ssh-key' ? (
        <fieldset
          className="field choice-group"
          aria-invalid={errors.sshKeyIds === undefined ? undefined : true}
          aria-describedby={errors.sshKeyIds === undefined ? undefined : `${id}-keys-error`}
        >
          <legend>SSH keys</legend>
          {keys.data === undefined ? (
            keys.error !== null && keys.error !== undefined ? (
              <LoadError error={keys.error} retry={() => void keys.refetch()} />
            ) : (
              <Loading label="Loading your SSH keys…" />
            )
          ) : keys.data.sshKeys.length === 0 ? (
            <p>
              You have no SSH keys yet. <Link to={paths.sshKeys}>Add an SSH key</Link>, or sign in with a
              password.
            </p>
          ) : (
            keys.data.sshKeys.map((key) => (
              <div className="choice" key={key.id}>
                <input
                  type="checkbox"
                  id={`${id}-key-${key.id}`}
                  checked={values.sshKeyIds.includes(key.id)}
                  onChange={(e) => {
                    onChange({
                      sshKeyIds: e.target.checked
                        ? [...values.sshKeyIds, key.id]
                        : values.sshKeyIds.filter((k) => k !== key.id),
                    });
                  }}
                />
                <label htmlFor={`${id}-key-${key.id}`}>
                  {key.name} <span className="muted">({key.fingerprint})</span>
                </label>
              </div>
            ))
          )}
          {errors.sshKeyIds !== undefined && (
            <p className="field-error" id={`${id}-keys-error`}>
              {errors.sshKeyIds}
            </p>
          )}
        </fieldset>
      ) : (
        <>
          <TextField
            label="Root password"
            type="password"
            autoComplete="new-password"
            hint={`At least ${passwordMinLength} characters.`}
            value={values.password}
            onChange={(e) => {
              onChange({ password: e.target.value });
            }}
            error={errors.password}
            required
          />
          <TextField
            label="Confirm root password"
            type="password"
            autoComplete="new-password"
            value={values.confirmPassword}
            onChange={(e) => {
              onChange({ confirmPassword: e.target.value });
            }}
            error={errors.confirmPassword}
            required
          />
        </>
      )}
    </>
  );
}
