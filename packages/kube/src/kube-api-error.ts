/** A `Status` object as the API server sends it with every failure. */
export interface KubeStatus {
  kind?: 'Status';
  apiVersion?: string;
  status?: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  code?: number;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    causes?: StatusCause[];
    retryAfterSeconds?: number;
  };
}

/** One field-level problem of an `Invalid` answer. */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export type KubeErrorCode =
  | 'NotFound'
  | 'Conflict'
  | 'AlreadyExists'
  | 'Forbidden'
  | 'Invalid'
  | 'Gone'
  | 'Unauthorized'
  | 'Unexpected';

/** Any failure answered by the API server. Use the subclasses (or `code`) to decide what to do. */
export class KubeApiError extends Error {
  override readonly name: string = 'KubeApiError';
  readonly code: KubeErrorCode = 'Unexpected';

  constructor(
    /** The HTTP status code. */
    readonly httpStatus: number,
    /** The server's Status, when it sent one. */
    readonly status: KubeStatus | undefined,
    message?: string,
  ) {
    super(message ?? status?.message ?? `Kubernetes API answered HTTP ${httpStatus}`);
  }
}

export class NotFoundError extends KubeApiError {
  override readonly name = 'NotFoundError';
  override readonly code = 'NotFound';
}

/** The object changed since it was read (resourceVersion mismatch): re-read and try again. */
export class ConflictError extends KubeApiError {
  override readonly name = 'ConflictError';
  override readonly code = 'Conflict';
}

export class AlreadyExistsError extends KubeApiError {
  override readonly name = 'AlreadyExistsError';
  override readonly code = 'AlreadyExists';
}

export class ForbiddenError extends KubeApiError {
  override readonly name = 'ForbiddenError';
  override readonly code = 'Forbidden';
}

/** The object failed validation; `causes` says which fields and why. */
export class InvalidError extends KubeApiError {
  override readonly name = 'InvalidError';
  override readonly code = 'Invalid';
  get causes(): StatusCause[] {
    return this.status?.details?.causes ?? [];
  }
}

/** The resourceVersion asked for is too old (compacted): list again. */
export class GoneError extends KubeApiError {
  override readonly name = 'GoneError';
  override readonly code = 'Gone';
}

export class UnauthorizedError extends KubeApiError {
  override readonly name = 'UnauthorizedError';
  override readonly code = 'Unauthorized';
}

type ErrorClass = new (httpStatus: number, status: KubeStatus | undefined, message?: string) => KubeApiError;

const BY_REASON: Record<string, ErrorClass> = {
  NotFound: NotFoundError,
  Conflict: ConflictError,
  AlreadyExists: AlreadyExistsError,
  Forbidden: ForbiddenError,
  Invalid: InvalidError,
  Gone: GoneError,
  // A watch from a compacted resourceVersion is answered with reason Expired and code 410.
  Expired: GoneError,
  Unauthorized: UnauthorizedError,
};

const BY_HTTP_STATUS: Record<number, ErrorClass> = {
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  410: GoneError,
  422: InvalidError,
};

/**
 * Turns a failed answer into the catalogue. The Status `reason` decides, then its `code`, then the
 * HTTP status; the message text never does.
 */
export function kubeApiError(httpStatus: number, status: KubeStatus | undefined): KubeApiError {
  const byReason = status?.reason === undefined ? undefined : BY_REASON[status.reason];
  const ErrorType =
    byReason ?? BY_HTTP_STATUS[status?.code ?? httpStatus] ?? BY_HTTP_STATUS[httpStatus] ?? KubeApiError;
  return new ErrorType(httpStatus, status);
}

/** Reads a response body as a Status if it is one. */
export function parseStatus(body: string): KubeStatus | undefined {
  if (body.trim() === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return isStatus(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function isStatus(value: unknown): value is KubeStatus {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'Status';
}
