import { AlreadyExistsError } from '@noderings/domain';
import { sql, type Transaction } from 'kysely';
import { z } from 'zod';

import type { Database } from '../../db/schema.js';

/**
 * Secrets and environment variables become the variables of an organisation's cloud-init templates, so
 * their keys follow environment-variable naming and share one namespace: in a template a name can mean
 * only one thing.
 */
const TEMPLATE_VARIABLE_KEY = /^[A-Z_][A-Z0-9_]{0,127}$/;

/** The largest value of a secret or environment variable, in UTF-8 bytes. */
export const TEMPLATE_VARIABLE_VALUE_MAX_BYTES = 64 * 1024;

export const templateVariableKey = z
  .string()
  .regex(
    TEMPLATE_VARIABLE_KEY,
    'must be 1 to 128 upper-case letters, digits and underscores, not starting with a digit',
  );

export const templateVariableValue = z
  .string()
  .refine(
    (value) => Buffer.byteLength(value, 'utf8') <= TEMPLATE_VARIABLE_VALUE_MAX_BYTES,
    `must be at most ${TEMPLATE_VARIABLE_VALUE_MAX_BYTES} bytes`,
  );

export type TemplateVariableKind = 'secret' | 'environmentVariable';

/**
 * Inside a transaction about to create `key`: holds a lock on the key until the transaction ends, so two
 * creates of one key (as a secret and as a variable, say) cannot both pass the check, and says which kind
 * already holds the key, if any.
 */
export async function claimTemplateVariableKey(
  tx: Transaction<Database>,
  organizationId: string,
  key: string,
): Promise<TemplateVariableKind | undefined> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`template-variable/${organizationId}/${key}`}, 0))`.execute(
    tx,
  );
  const secret = await tx
    .selectFrom('secrets')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('key', '=', key)
    .executeTakeFirst();
  if (secret !== undefined) return 'secret';
  const variable = await tx
    .selectFrom('environment_variables')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('key', '=', key)
    .executeTakeFirst();
  if (variable !== undefined) return 'environmentVariable';
  return undefined;
}

const KIND_NAME: Readonly<Record<TemplateVariableKind, string>> = {
  secret: 'a secret',
  environmentVariable: 'an environment variable',
};

/** The conflict of creating `key` as `wanted` when it already names a `takenBy` (the key is not secret). */
export function keyTakenError(
  key: string,
  wanted: TemplateVariableKind,
  takenBy: TemplateVariableKind,
): AlreadyExistsError {
  return new AlreadyExistsError(
    wanted === takenBy
      ? `The organization already has ${KIND_NAME[takenBy]} ${key}.`
      : `${key} is already ${KIND_NAME[takenBy]} of the organization: a key names either a secret or an environment variable, not both.`,
  );
}
