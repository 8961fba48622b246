/** A cause inside `Status.details.causes`, as kube-apiserver reports a field error. */
export interface StatusCause {
  reason: string;
  message: string;
  field: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** The `metav1.Status` object every failed request answers with. */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** What a resource error names: the resource (plural) and its group, e.g. `proxmoxvms` in `vm.noderings.com`. */
export interface ResourceRef {
  group: string;
  resource: string;
}

/** The one error type of the simulator: it carries the Status the client will see. */
export class StatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
  }

  toStatus(): Status {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

/** `proxmoxvms.vm.noderings.com` or plain `secrets` for the core group. */
function qualifiedResource(ref: ResourceRef): string {
  return ref.group ? `${ref.resource}.${ref.group}` : ref.resource;
}

export function notFound(ref: ResourceRef, name: string): StatusError {
  return new StatusError(404, 'NotFound', `${qualifiedResource(ref)} "${name}" not found`, {
    name,
    group: ref.group,
    kind: ref.resource,
  });
}

export function alreadyExists(ref: ResourceRef, name: string): StatusError {
  return new StatusError(409, 'AlreadyExists', `${qualifiedResource(ref)} "${name}" already exists`, {
    name,
    group: ref.group,
    kind: ref.resource,
  });
}

export function conflict(ref: ResourceRef, name: string, why: string): StatusError {
  return new StatusError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(ref)} "${name}": ${why}`,
    { name, group: ref.group, kind: ref.resource },
  );
}

export const STALE_OBJECT =
  'the object has been modified; please apply your changes to the latest version and try again';

/** 422 naming the kind (not the resource), as validation errors do: `Secret "x" is invalid: …`. */
export function invalid(
  kind: { group: string; kind: string },
  name: string,
  causes: StatusCause[],
): StatusError {
  const qualifiedKind = kind.group ? `${kind.kind}.${kind.group}` : kind.kind;
  const listed = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message));
  const summary = listed.length === 1 ? (listed[0] ?? '') : `[${listed.join(', ')}]`;
  return new StatusError(422, 'Invalid', `${qualifiedKind} "${name}" is invalid: ${summary}`, {
    name,
    group: kind.group,
    kind: kind.kind,
    causes,
  });
}

export function badRequest(message: string): StatusError {
  return new StatusError(400, 'BadRequest', message);
}

export function forbidden(message: string, details: StatusDetails): StatusError {
  return new StatusError(403, 'Forbidden', message, details);
}

export function unauthorized(): StatusError {
  return new StatusError(401, 'Unauthorized', 'Unauthorized');
}

export function methodNotAllowed(message: string): StatusError {
  return new StatusError(405, 'MethodNotAllowed', message);
}

export function unsupportedMediaType(accepted: readonly string[]): StatusError {
  return new StatusError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}

export function gone(message: string): StatusError {
  return new StatusError(410, 'Expired', message);
}

/** Field-error constructors with kube's wording (`field.Required`, `field.Invalid`, …). */
export const fieldError = {
  required: (field: string, detail = ''): StatusCause => ({
    reason: 'FieldValueRequired',
    message: detail ? `Required value: ${detail}` : 'Required value',
    field,
  }),
  invalid: (field: string, value: unknown, detail: string): StatusCause => ({
    reason: 'FieldValueInvalid',
    message: `Invalid value: ${JSON.stringify(value)}: ${detail}`,
    field,
  }),
  /** `field.Invalid` for a value Go prints with `%#v` (maps, structs), given as that text. */
  invalidLiteral: (field: string, goLiteral: string, detail: string): StatusCause => ({
    reason: 'FieldValueInvalid',
    message: `Invalid value: ${goLiteral}: ${detail}`,
    field,
  }),
  duplicate: (field: string, value: unknown): StatusCause => ({
    reason: 'FieldValueDuplicate',
    message: `Duplicate value: ${JSON.stringify(value)}`,
    field,
  }),
  notSupported: (field: string, value: unknown, supported: readonly string[]): StatusCause => ({
    reason: 'FieldValueNotSupported',
    message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${supported.map((v) => `"${v}"`).join(', ')}`,
    field,
  }),
  forbidden: (field: string, detail: string): StatusCause => ({
    reason: 'FieldValueForbidden',
    message: `Forbidden: ${detail}`,
    field,
  }),
  tooLong: (field: string, max: number): StatusCause => ({
    reason: 'FieldValueTooLong',
    message: `Too long: may not be more than ${max} bytes`,
    field,
  }),
};
