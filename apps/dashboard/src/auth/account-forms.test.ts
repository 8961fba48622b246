import { describe, expect, it } from 'vitest';

import { validateRegistration, validateSignIn } from './account-forms.js';

const valid = {
  email: 'owner@example.com',
  password: 'a long enough phrase',
  confirmPassword: 'a long enough phrase',
  organizationName: 'Example Hosting',
  organizationType: 'ORGANIZATION_TYPE_PROVIDER' as const,
};

describe('registration', () => {
  it('accepts a complete form', () => {
    expect(validateRegistration(valid)).toEqual({});
  });

  it('names every field that is wrong, as the API would', () => {
    const errors = validateRegistration({
      email: 'nope',
      password: 'short',
      confirmPassword: 'short',
      organizationName: ' ',
      organizationType: '',
    });
    expect(Object.keys(errors).sort()).toEqual(['email', 'organizationName', 'organizationType', 'password']);
    expect(errors.password).toMatch(/at least 15/);
  });

  it('asks for the API’s 15 characters before sending', () => {
    const fourteen = 'fourteen chars';
    expect(validateRegistration({ ...valid, password: fourteen, confirmPassword: fourteen }).password).toBe(
      'Use at least 15 characters.',
    );
  });

  it('catches a mistyped confirmation', () => {
    expect(validateRegistration({ ...valid, confirmPassword: 'something-else' })).toEqual({
      confirmPassword: 'The passwords do not match.',
    });
  });
});

describe('sign-in', () => {
  it('needs an email and a password', () => {
    expect(Object.keys(validateSignIn({ email: '', password: '' })).sort()).toEqual(['email', 'password']);
    expect(validateSignIn({ email: 'customer@sandbox.local', password: 'x' })).toEqual({});
  });
});
