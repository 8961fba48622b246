import type { StatusCause } from '../schema/index.js';

export interface TokenRequestSpec {
  namespace: string;
  name: string;
  uid: string;
  audiences?: string[];
  expirationSeconds?: number;
}

export const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;
/** kube-apiserver refuses TokenRequests for less than ten minutes. */
const MIN_TOKEN_EXPIRATION_SECONDS = 600;
/** …and for more than 2^32 seconds. */
const MAX_TOKEN_EXPIRATION_SECONDS = 2 ** 32;

/** The 422 causes kube-apiserver gives for a TokenRequest spec (`spec.expirationSeconds`). */
export function validateTokenRequest(spec: Pick<TokenRequestSpec, 'expirationSeconds'>): StatusCause[] {
  const seconds = spec.expirationSeconds;
  if (seconds === undefined) return [];
  const field = 'spec.expirationSeconds';
  if (!Number.isInteger(seconds) || seconds < MIN_TOKEN_EXPIRATION_SECONDS) {
    return [
      {
        reason: 'FieldValueInvalid',
        field,
        message: `Invalid value: ${seconds}: may not specify a duration less than 10 minutes`,
      },
    ];
  }
  if (seconds > MAX_TOKEN_EXPIRATION_SECONDS) {
    return [
      {
        reason: 'FieldValueInvalid',
        field,
        message: `Invalid value: ${seconds}: may not specify a duration larger than 2^32 seconds`,
      },
    ];
  }
  return [];
}
