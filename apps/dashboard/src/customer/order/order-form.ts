import {
  hostname,
  maxLength,
  minLength,
  required,
  validate,
  type FieldErrors,
} from '../../ui/form-validation.js';

export type SignInMethod = 'ssh-key' | 'password';

export interface OrderValues {
  readonly hostname: string;
  readonly regionId: string;
  readonly distro: string;
  readonly signInMethod: SignInMethod;
  readonly sshKeyIds: readonly string[];
  readonly password: string;
  readonly confirmPassword: string;
}

/** The API's limits for a VM's root password. */
export const VM_PASSWORD_MIN_LENGTH = 12;
const VM_PASSWORD_MAX_LENGTH = 128;

export function validateOrder(values: OrderValues): FieldErrors {
  const errors: Record<string, string> = validate(
    { hostname: values.hostname, regionId: values.regionId, distro: values.distro },
    {
      hostname: [required, hostname],
      regionId: [(v) => (v === '' ? 'Choose a region.' : undefined)],
      distro: [(v) => (v === '' ? 'Choose an operating system.' : undefined)],
    },
  );
  if (values.signInMethod === 'ssh-key') {
    if (values.sshKeyIds.length === 0)
      errors.sshKeyIds = 'Choose at least one SSH key, or sign in with a password.';
  } else {
    const password = validate(
      { password: values.password },
      { password: [required, minLength(VM_PASSWORD_MIN_LENGTH), maxLength(VM_PASSWORD_MAX_LENGTH)] },
    );
    Object.assign(errors, password);
    if (password.password === undefined && values.confirmPassword !== values.password)
      errors.confirmPassword = 'The passwords do not match.';
  }
  return errors;
}

/** `POST /v1/virtual-machines`: the order, with the key that makes a repeated submission the same order. */
export function orderRequest(values: OrderValues, planId: string, idempotencyKey: string) {
  return {
    hostname: values.hostname.trim(),
    planId,
    regionId: values.regionId,
    distro: values.distro,
    idempotencyKey,
    ...(values.signInMethod === 'ssh-key'
      ? { sshKeyIds: [...values.sshKeyIds] }
      : { password: values.password }),
  };
}

/**
 * A random UUID (version 4) for an order's idempotency key. crypto.randomUUID exists only in secure
 * contexts, and the dashboard may be served over plain HTTP inside a provider's network, so the bytes
 * come from getRandomValues, which is everywhere.
 */
export function newIdempotencyKey(
  random: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b),
): string {
  const bytes = random(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
