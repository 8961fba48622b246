import { DomainError, ResourceExhaustedError, type FieldViolation } from '@noderings/domain';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

import { isForeignKeyViolation, isUniqueViolation } from '../db/postgres-error.js';
import { apiErrorBody, HTTP_STATUS } from './api-error.js';

/** Where a validation error was found, as the caller names it in a field path. */
const CONTEXT_PREFIX: Readonly<Record<string, string>> = {
  body: '',
  querystring: 'query.',
  params: 'path.',
  headers: 'header.',
};

/**
 * Every error leaves as google.rpc.Status. Messages of unexpected errors are logged, never returned:
 * they may hold SQL, paths or values.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const prefix = CONTEXT_PREFIX[error.validationContext ?? 'body'] ?? '';
      const violations: FieldViolation[] = error.validation.flatMap((v) => {
        const path = v.instancePath.slice(1).replaceAll('/', '.');
        const field = (suffix: string) =>
          [prefix + path, suffix]
            .filter((p) => p !== '')
            .join('.')
            .replace(/\.$/, '') || '(root)';
        // An unknown field is reported on the object; name each unknown field instead.
        const unknownKeys =
          v.keyword === 'unrecognized_keys' ? (v.params as { keys?: unknown }).keys : undefined;
        if (Array.isArray(unknownKeys)) {
          return unknownKeys.map((key) => ({
            field: field(String(key)),
            description: 'is not a known field',
          }));
        }
        return [{ field: field(''), description: v.message ?? 'is invalid' }];
      });
      return reply.status(400).send(apiErrorBody('INVALID_ARGUMENT', 'The request is invalid.', violations));
    }
    if (error instanceof DomainError) {
      if (error instanceof ResourceExhaustedError && error.retryAfterSeconds !== undefined)
        reply.header('retry-after', String(error.retryAfterSeconds));
      return reply
        .status(HTTP_STATUS[error.code])
        .send(apiErrorBody(error.code, error.message, error.fieldViolations));
    }
    if (isUniqueViolation(error)) {
      return reply
        .status(409)
        .send(apiErrorBody('ALREADY_EXISTS', 'An object with these values already exists.'));
    }
    if (isForeignKeyViolation(error)) {
      return reply
        .status(412)
        .send(
          apiErrorBody('FAILED_PRECONDITION', 'The object is referenced by, or refers to, another object.'),
        );
    }
    // Fastify's own client errors: malformed JSON, wrong content type, body too large.
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send(apiErrorBody('INVALID_ARGUMENT', clientErrorMessage(error)));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send(apiErrorBody('INTERNAL', 'Internal error.'));
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .send(apiErrorBody('NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0] ?? ''}.`)),
  );
}

function clientErrorMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'The request body must be application/json (remote-write at /api/v1/write: application/x-protobuf, snappy).';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large.';
    default:
      return 'The request is invalid.';
  }
}
