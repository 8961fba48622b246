import { describe, expect, it } from 'vitest';
import {
  AlreadyExistsError,
  ConflictError,
  ForbiddenError,
  GoneError,
  InvalidError,
  KubeApiError,
  NotFoundError,
  UnauthorizedError,
  kubeApiError,
  parseStatus,
} from './kube-api-error.js';

describe('kubeApiError', () => {
  it.each([
    [404, 'NotFound', NotFoundError],
    [409, 'Conflict', ConflictError],
    [409, 'AlreadyExists', AlreadyExistsError],
    [403, 'Forbidden', ForbiddenError],
    [422, 'Invalid', InvalidError],
    [410, 'Expired', GoneError],
    [410, 'Gone', GoneError],
    [401, 'Unauthorized', UnauthorizedError],
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
    expect(error).toBeInstanceOf(AlreadyExistsError);
  });

  it('falls back to the HTTP status when there is no Status body', () => {
    expect(kubeApiError(404, undefined)).toBeInstanceOf(NotFoundError);
    expect(kubeApiError(401, undefined)).toBeInstanceOf(UnauthorizedError);
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
    if (!(error instanceof InvalidError)) throw new Error(`expected InvalidError, got ${error.name}`);
    expect(error.causes).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.network.vlan', message: 'must be <= 4094' },
    ]);
  });

  it('ignores bodies that are not a Status', () => {
    expect(parseStatus('<html>bad gateway</html>')).toBeUndefined();
    expect(parseStatus('{"kind":"Pod"}')).toBeUndefined();
  });
});
