import type { OrganizationType } from '../api/api-resources.js';
import { email, maxLength, minLength, required, validate, type FieldErrors } from '../ui/form-validation.js';

export interface SignInValues {
  readonly email: string;
  readonly password: string;
}

export function validateSignIn(values: SignInValues): FieldErrors {
  return validate({ ...values }, { email: [required, email], password: [required] });
}

export interface RegistrationValues {
  readonly email: string;
  readonly password: string;
  readonly confirmPassword: string;
  readonly organizationName: string;
  readonly organizationType: OrganizationType | '';
}

/**
 * The API's limits: a password of 15 to 256 characters (NIST SP 800-63B for a password that is the only
 * factor), an organisation name of 1 to 200. Whether a password is guessable only the API can tell (it
 * holds the lists); its answer is shown beside the field.
 */
export const PASSWORD_MIN_LENGTH = 15;

export function validateRegistration(values: RegistrationValues): FieldErrors {
  const errors: Record<string, string> = validate(
    { ...values },
    {
      email: [required, email, maxLength(254)],
      password: [required, minLength(PASSWORD_MIN_LENGTH), maxLength(256)],
      organizationName: [required, maxLength(200)],
      organizationType: [(v) => (v === '' ? 'Choose whether you sell or buy VMs.' : undefined)],
    },
  );
  if (errors.password === undefined && values.confirmPassword !== values.password)
    errors.confirmPassword = 'The passwords do not match.';
  return errors;
}
