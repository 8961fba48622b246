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

export class KubeNotFoundError extends KubeApiError {
  override readonly name = 'KubeNotFoundError';
  override readonly code = 'NotFound';
}

/** The object changed since it was read (resourceVersion mismatch): re-read and try again. */
export class KubeConflictError extends KubeApiError {
  override readonly name = 'KubeConflictError';
  override readonly code = 'Conflict';
}

export class KubeAlreadyExistsError extends KubeApiError {
  override readonly name = 'KubeAlreadyExistsError';
  override readonly code = 'AlreadyExists';
}

export class KubeForbiddenError extends KubeApiError {
  override readonly name = 'KubeForbiddenError';
  override readonly code = 'Forbidden';
}

/** The object failed validation; `causes` says which fields and why. */
export class KubeInvalidError extends KubeApiError {
  override readonly name = 'KubeInvalidError';
  override readonly code = 'Invalid';
  get causes(): StatusCause[] {
    return this.status?.details?.causes ?? [];
  }
}

/** The resourceVersion asked for is too old (compacted): list again. */
export class KubeGoneError extends KubeApiError {
  override readonly name = 'KubeGoneError';
  override readonly code = 'Gone';
}

export class KubeUnauthorizedError extends KubeApiError {
  override readonly name = 'KubeUnauthorizedError';
  override readonly code = 'Unauthorized';
}

type ErrorClass = new (httpStatus: number, status: KubeStatus | undefined, message?: string) => KubeApiError;

const BY_REASON: Record<string, ErrorClass> = {
  NotFound: KubeNotFoundError,
  Conflict: KubeConflictError,
  AlreadyExists: KubeAlreadyExistsError,
  Forbidden: KubeForbiddenError,
  Invalid: KubeInvalidError,
  Gone: KubeGoneError,
  // A watch from a compacted resourceVersion is answered with reason Expired and code 410.
  Expired: KubeGoneError,
  Unauthorized: KubeUnauthorizedError,
};

const BY_HTTP_STATUS: Record<number, ErrorClass> = {
  401: KubeUnauthorizedError,
  403: KubeForbiddenError,
  404: KubeNotFoundError,
  409: KubeConflictError,
  410: KubeGoneError,
  422: KubeInvalidError,
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
