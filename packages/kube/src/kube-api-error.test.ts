import { describe, expect, it } from 'vitest';
import {
  KubeAlreadyExistsError,
  KubeConflictError,
  KubeForbiddenError,
  KubeGoneError,
  KubeInvalidError,
  KubeApiError,
  KubeNotFoundError,
  KubeUnauthorizedError,
  kubeApiError,
  parseStatus,
} from './kube-api-error.js';

describe('kubeApiError', () => {
  it.each([
    [404, 'NotFound', KubeNotFoundError],
    [409, 'Conflict', KubeConflictError],
    [409, 'AlreadyExists', KubeAlreadyExistsError],
    [403, 'Forbidden', KubeForbiddenError],
    [422, 'Invalid', KubeInvalidError],
    [410, 'Expired', KubeGoneError],
    [410, 'Gone', KubeGoneError],
    [401, 'Unauthorized', KubeUnauthorizedError],
  ])('maps HTTP %i with reason %s', (code, reason, type) => {
    const error = kubeApiError(code, {
      kind: 'Status',
      status: 'Failure',
      reason,
      code,
      message: 'whatever the text says',
    });
    expect(error).toBeInstanceOf(type);
    expect(error.httpStatus).toBe(code);
  });

  it('decides by reason, not by the message text', () => {
    const error = kubeApiError(409, {
      kind: 'Status',
      reason: 'AlreadyExists',
      code: 409,
      message: 'the object has been modified',
    });
    expect(error).toBeInstanceOf(KubeAlreadyExistsError);
  });

  it('falls back to the HTTP status when there is no Status body', () => {
    expect(kubeApiError(404, undefined)).toBeInstanceOf(KubeNotFoundError);
    expect(kubeApiError(401, undefined)).toBeInstanceOf(KubeUnauthorizedError);
    const other = kubeApiError(500, undefined);
    expect(other).toBeInstanceOf(KubeApiError);
    expect(other.code).toBe('Unexpected');
  });

  it('carries the causes of an Invalid answer', () => {
    const status = parseStatus(
      JSON.stringify({
        kind: 'Status',
        reason: 'Invalid',
        code: 422,
        details: {
          causes: [{ reason: 'FieldValueInvalid', field: 'spec.network.vlan', message: 'must be <= 4094' }],
        },
      }),
    );
    const error = kubeApiError(422, status);
    if (!(error instanceof KubeInvalidError)) throw new Error(`expected KubeInvalidError, got ${error.name}`);
    expect(error.causes).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.network.vlan', message: 'must be <= 4094' },
    ]);
  });

  it('ignores bodies that are not a Status', () => {
    expect(parseStatus('<html>bad gateway</html>')).toBeUndefined();
    expect(parseStatus('{"kind":"Pod"}')).toBeUndefined();
  });
});
