/** SQLSTATE classes we turn into domain errors; both pg and PGlite put the code on the error. */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
/** `nextval` past a sequence's MAXVALUE (NO CYCLE). */
const SEQUENCE_EXHAUSTED = '2200H';

function sqlState(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null || !('code' in e)) return undefined;
  return typeof e.code === 'string' ? e.code : undefined;
}

function constraintOf(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null || !('constraint' in e)) return undefined;
  return typeof e.constraint === 'string' ? e.constraint : undefined;
}

/** True when `e` is a unique violation (of `constraint`, when named). */
export function isUniqueViolation(e: unknown, constraint?: string): boolean {
  return sqlState(e) === UNIQUE_VIOLATION && (constraint === undefined || constraintOf(e) === constraint);
}

export function isForeignKeyViolation(e: unknown): boolean {
  return sqlState(e) === FOREIGN_KEY_VIOLATION;
}

export function isSequenceExhausted(e: unknown): boolean {
  return sqlState(e) === SEQUENCE_EXHAUSTED;
}
