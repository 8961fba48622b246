/** One entry of a 422 Status's `details.causes`, worded as kube-apiserver's field errors are. */
export interface StatusCause {
  reason:
    | 'FieldValueRequired'
    | 'FieldValueInvalid'
    | 'FieldValueNotSupported'
    | 'FieldValueTypeInvalid'
    | 'FieldValueDuplicate'
    | 'FieldValueTooLong'
    | 'FieldValueTooMany'
    | 'FieldValueForbidden';
  message: string;
  field: string;
}

/**
 * Renders a bad value the way apimachinery's field errors do: strings quoted, numbers and booleans bare,
 * null as the quoted word. Go prints composite values with `%#v`; JSON is the readable equivalent here.
 */
function formatBadValue(value: unknown): string {
  if (value === null || value === undefined) return '"null"';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  try {
    return JSON.stringify(value);
  } catch (e: unknown) {
    // Only cyclic or BigInt-bearing values get here, and neither comes out of a JSON body.
    return e instanceof Error ? `<${e.message}>` : '<unprintable>';
  }
}

function withDetail(head: string, detail: string | undefined): string {
  return detail ? `${head}: ${detail}` : head;
}

export function requiredCause(field: string, detail?: string): StatusCause {
  return { reason: 'FieldValueRequired', field, message: withDetail('Required value', detail) };
}

export function invalidCause(field: string, value: unknown, detail: string): StatusCause {
  return {
    reason: 'FieldValueInvalid',
    field,
    message: withDetail(`Invalid value: ${formatBadValue(value)}`, detail),
  };
}

export function typeInvalidCause(field: string, value: unknown, detail: string): StatusCause {
  return {
    reason: 'FieldValueTypeInvalid',
    field,
    message: withDetail(`Invalid value: ${formatBadValue(value)}`, detail),
  };
}

export function notSupportedCause(field: string, value: unknown, supported: readonly string[]): StatusCause {
  const detail =
    supported.length > 0 ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : '';
  return {
    reason: 'FieldValueNotSupported',
    field,
    message: withDetail(`Unsupported value: ${formatBadValue(value)}`, detail),
  };
}

export function duplicateCause(field: string, value: unknown): StatusCause {
  return { reason: 'FieldValueDuplicate', field, message: `Duplicate value: ${formatBadValue(value)}` };
}

/** The value itself is left out of the message, as apimachinery does, because it is the long thing. */
export function tooLongCause(field: string, maxLength: number): StatusCause {
  const unit = maxLength === 1 ? 'byte' : 'bytes';
  return {
    reason: 'FieldValueTooLong',
    field,
    message: `Too long: may not be more than ${maxLength} ${unit}`,
  };
}

export function tooManyCause(field: string, actual: number, max: number): StatusCause {
  return {
    reason: 'FieldValueTooMany',
    field,
    message: `Too many: ${actual}: must have at most ${max} items`,
  };
}

export function forbiddenCause(field: string, detail: string): StatusCause {
  return { reason: 'FieldValueForbidden', field, message: withDetail('Forbidden', detail) };
}
