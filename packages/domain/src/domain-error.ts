/**
 * The error catalogue. Every failure a caller can act on is one of these classes, each with a stable
 * google.rpc code; apps map the code to their own surface (HTTP status, exit code, condition reason) in
 * exactly one place. Behaviour is never decided by matching a message.
 */
export type ErrorCode =
  | 'INVALID_ARGUMENT'
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'ABORTED'
  | 'FAILED_PRECONDITION'
  | 'RESOURCE_EXHAUSTED'
  | 'UNAVAILABLE'
  | 'INTERNAL';

/** One invalid field: its path in the request (`network.vlanId`, `allowedIps.2`) and what is wrong. */
export interface FieldViolation {
  readonly field: string;
  readonly description: string;
}

export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
  readonly fieldViolations: readonly FieldViolation[];

  constructor(message: string, fieldViolations: readonly FieldViolation[] = []) {
    super(message);
    this.name = new.target.name;
    this.fieldViolations = fieldViolations;
  }
}

export class InvalidArgumentError extends DomainError {
  readonly code = 'INVALID_ARGUMENT';

  /** A single bad field, the most common case. */
  static field(field: string, description: string): InvalidArgumentError {
    return new InvalidArgumentError(`${field}: ${description}`, [{ field, description }]);
  }
}

export class UnauthenticatedError extends DomainError {
  readonly code = 'UNAUTHENTICATED';
}

export class PermissionDeniedError extends DomainError {
  readonly code = 'PERMISSION_DENIED';
}

export class NotFoundError extends DomainError {
  readonly code = 'NOT_FOUND';

  /** Says the same whether the object is missing or belongs to another tenant, so existence never leaks. */
  static of(kind: string, id: string): NotFoundError {
    return new NotFoundError(`${kind} ${id} was not found.`);
  }
}

export class AlreadyExistsError extends DomainError {
  readonly code = 'ALREADY_EXISTS';
}

export class AbortedError extends DomainError {
  readonly code = 'ABORTED';
}

export class FailedPreconditionError extends DomainError {
  readonly code = 'FAILED_PRECONDITION';
}

export class ResourceExhaustedError extends DomainError {
  readonly code = 'RESOURCE_EXHAUSTED';
  /** When a rate limit, rather than a quota, refused: how long until trying again can succeed. */
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, options: { readonly retryAfterSeconds?: number } = {}) {
    super(message);
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export class UnavailableError extends DomainError {
  readonly code = 'UNAVAILABLE';
}
