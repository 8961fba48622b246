import type { ErrorCode, FieldViolation } from '@noderings/domain';
import { z } from 'zod';

/** google.rpc.Code → HTTP status, the one place the mapping lives (DESIGN §3.5). */
export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  ABORTED: 409,
  FAILED_PRECONDITION: 412,
  RESOURCE_EXHAUSTED: 429,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

const BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest';

/** The body of every error response: google.rpc.Status. */
export interface ApiErrorBody {
  code: ErrorCode;
  message: string;
  details: { '@type': string; fieldViolations: FieldViolation[] }[];
}

export function apiErrorBody(
  code: ErrorCode,
  message: string,
  violations: readonly FieldViolation[] = [],
): ApiErrorBody {
  return {
    code,
    message,
    details: violations.length === 0 ? [] : [{ '@type': BAD_REQUEST_TYPE, fieldViolations: [...violations] }],
  };
}

export const apiErrorSchema = z
  .object({
    code: z.string(),
    message: z.string(),
    details: z.array(
      z.object({
        '@type': z.string(),
        fieldViolations: z.array(z.object({ field: z.string(), description: z.string() })),
      }),
    ),
  })
  .meta({ id: 'Status' });
