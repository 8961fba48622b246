import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

const UNSTORABLE_TEXT_MESSAGE =
  'contains a character that cannot be stored (a NUL, or half of a UTF-16 surrogate pair)';

/** Objects deeper than this are not walked: no schema nests this deep, so zod refuses them anyway. */
const MAX_DEPTH = 64;

/**
 * PostgreSQL's text and jsonb cannot hold U+0000, and UTF-8 has no encoding of an unpaired surrogate
 * (node-postgres would silently store U+FFFD; jsonb refuses the escape). Such strings are refused before
 * any route's schema sees them, keys included, so no route can forget it.
 */
function unstorablePaths(value: unknown, path: (string | number)[] = [], found: (string | number)[][] = []) {
  if (typeof value === 'string') {
    if (!isStorable(value)) found.push(path);
  } else if (Array.isArray(value)) {
    if (path.length < MAX_DEPTH) value.forEach((item, i) => unstorablePaths(item, [...path, i], found));
  } else if (typeof value === 'object' && value !== null && path.length < MAX_DEPTH) {
    for (const [key, item] of Object.entries(value)) {
      if (!isStorable(key)) found.push([...path, key]);
      else unstorablePaths(item, [...path, key], found);
    }
  }
  return found;
}

const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function isStorable(text: string): boolean {
  return !text.includes('\u0000') && !UNPAIRED_SURROGATE.test(text);
}

/** Nothing but the storable-text check, run before a route's own schema (which then sees only storable text). */
const storableText = z.unknown().superRefine((value, ctx) => {
  for (const path of unstorablePaths(value))
    ctx.addIssue({ code: 'custom', path, message: UNSTORABLE_TEXT_MESSAGE });
});

/**
 * fastify-type-provider-zod's validator with the storable-text check in front, for bodies, query strings,
 * path parameters and headers alike. Its violations reach the error handler as any zod issue does.
 */
export const storableTextValidatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) =>
  validatorCompiler({ ...route, schema: storableText.pipe(route.schema) });
