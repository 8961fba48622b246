/** One field the API refused, as google.rpc.BadRequest names it (`email`, `rule.destinationPorts`). */
export interface FieldViolation {
  readonly field: string;
  readonly description: string;
}

/**
 * A refused or failed API call, in words a person can act on. `code` is the google.rpc code name the API
 * answered (`INVALID_ARGUMENT`, `NOT_FOUND`, …), or `UNAVAILABLE` when no answer came at all.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fieldViolations: readonly FieldViolation[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** What to say when the answer carries no message of its own (a proxy's page, an empty body). */
const MESSAGE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'The request was not accepted.',
  401: 'Your session has ended. Sign in again.',
  403: 'You do not have permission to do this in this organisation.',
  404: 'This was not found. It may have been deleted.',
  409: 'This conflicts with something that already exists.',
  412: 'This cannot be done in the current state.',
  413: 'The request is too large.',
  429: 'Too many requests. Wait a moment and try again.',
};

const CODE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  412: 'FAILED_PRECONDITION',
  429: 'RESOURCE_EXHAUSTED',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function violationsOf(details: unknown): FieldViolation[] {
  if (!Array.isArray(details)) return [];
  return details.flatMap((detail: unknown) => {
    if (!isRecord(detail) || !Array.isArray(detail.fieldViolations)) return [];
    return (detail.fieldViolations as unknown[]).flatMap((v: unknown) =>
      isRecord(v) && typeof v.field === 'string' && typeof v.description === 'string'
        ? [{ field: v.field, description: v.description }]
        : [],
    );
  });
}

function fallbackMessage(status: number): string {
  return (
    MESSAGE_BY_STATUS[status] ??
    (status >= 500
      ? `NodeRings could not complete the request (status ${status}). Try again in a moment.`
      : `The request failed (status ${status}).`)
  );
}

/** The error for an answer that was not a success; `body` is its parsed JSON, or undefined. */
export function apiErrorFromResponse(status: number, body: unknown): ApiError {
  const fallbackCode = CODE_BY_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'UNKNOWN');
  if (!isRecord(body)) return new ApiError(status, fallbackCode, fallbackMessage(status));
  const code = typeof body.code === 'string' ? body.code : fallbackCode;
  const message =
    typeof body.message === 'string' && body.message.trim() !== '' ? body.message : fallbackMessage(status);
  return new ApiError(status, code, message, violationsOf(body.details));
}

/** The error for a call that got no answer (offline, DNS, the server went away). */
export function networkError(): ApiError {
  return new ApiError(0, 'UNAVAILABLE', 'NodeRings cannot be reached. Check your connection and try again.');
}

/** Query parameters come back as `query.filterCity`; forms name the field without the prefix. */
const LOCATION_PREFIX = /^(query|body|params)\./;

/**
 * The field violations keyed by field path (first description per field), for forms to show beside their
 * inputs. A form whose inputs sit under a request object (`ruleset.name`) passes that object as `within`.
 */
export function fieldErrorsOf(error: unknown, within?: string): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const errors: Record<string, string> = {};
  for (const violation of error.fieldViolations) {
    let field = violation.field.replace(LOCATION_PREFIX, '');
    if (within !== undefined && field.startsWith(`${within}.`)) field = field.slice(within.length + 1);
    errors[field] ??= violation.description;
  }
  return errors;
}

/** The message for any thrown value: ours as the API worded it, anything else as a generic sentence. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return 'Something went wrong in the dashboard. Reload the page and try again.';
}

/** Whether a violation's path is the field or inside it (`source.ips.1` is under `source.ips`). */
export function isUnder(path: string, field: string): boolean {
  return path === field || path.startsWith(`${field}.`);
}

/** The violation of a field or of anything inside it, for an input that edits a whole list. */
export function errorAt(errors: Readonly<Record<string, string>>, field: string): string | undefined {
  const key = Object.keys(errors).find((path) => isUnder(path, field));
  return key === undefined ? undefined : errors[key];
}
