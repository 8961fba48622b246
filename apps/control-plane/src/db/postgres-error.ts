/** SQLSTATE classes we turn into domain errors; both pg and PGlite put the code on the error. */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
const EXCLUSION_VIOLATION = '23P01';
/** ON DELETE RESTRICT: PostgreSQL 15 reports 23503, PGlite (PostgreSQL 17+) 23001. */
const RESTRICT_VIOLATION = '23001';
/** `nextval` past a sequence's MAXVALUE (NO CYCLE). */
const SEQUENCE_EXHAUSTED = '2200H';
/** Transactions PostgreSQL ended to break a cycle of lock waits, or to keep a snapshot consistent. */
const DEADLOCK_DETECTED = '40P01';
const SERIALIZATION_FAILURE = '40001';

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

/** True when `e` is an exclusion-constraint violation (of `constraint`, when named). */
function isExclusionViolation(e: unknown, constraint?: string): boolean {
  return sqlState(e) === EXCLUSION_VIOLATION && (constraint === undefined || constraintOf(e) === constraint);
}

export function isForeignKeyViolation(e: unknown): boolean {
  const state = sqlState(e);
  return state === FOREIGN_KEY_VIOLATION || state === RESTRICT_VIOLATION;
}

function isSequenceExhausted(e: unknown): boolean {
  return sqlState(e) === SEQUENCE_EXHAUSTED;
}

/** The transaction lost a race it can win when retried whole: a deadlock or a serialization failure. */
export function isTransactionConflict(e: unknown): boolean {
  const state = sqlState(e);
  return state === DEADLOCK_DETECTED || state === SERIALIZATION_FAILURE;
}

/** The domain error a violation means; a promise when finding the details takes a query. */
type Meaning = () => Error | Promise<Error>;

/** A meaning for any constraint of the kind, or one per constraint name (others are rethrown as they are). */
type ConstraintMeanings = Meaning | Readonly<Record<string, Meaning>>;

/** What each kind of violation means to the statement that raised it; a kind left out is rethrown as it is. */
export interface ViolationMeanings {
  readonly unique?: ConstraintMeanings | undefined;
  readonly exclusion?: ConstraintMeanings | undefined;
  /** Also ON DELETE RESTRICT. */
  readonly foreignKey?: Meaning | undefined;
  readonly sequenceExhausted?: Meaning | undefined;
  /** Not a violation: a deadlock or a serialization failure, which the transaction can win when retried. */
  readonly transactionConflict?: Meaning | undefined;
}

function constraintMeaning(meanings: ConstraintMeanings | undefined, e: unknown): Meaning | undefined {
  if (meanings === undefined || typeof meanings === 'function') return meanings;
  const constraint = constraintOf(e);
  return constraint !== undefined && Object.hasOwn(meanings, constraint) ? meanings[constraint] : undefined;
}

function meaningOf(e: unknown, meanings: ViolationMeanings): Meaning | undefined {
  if (isUniqueViolation(e)) return constraintMeaning(meanings.unique, e);
  if (isExclusionViolation(e)) return constraintMeaning(meanings.exclusion, e);
  if (isForeignKeyViolation(e)) return meanings.foreignKey;
  if (isSequenceExhausted(e)) return meanings.sequenceExhausted;
  if (isTransactionConflict(e)) return meanings.transactionConflict;
  return undefined;
}

/** Awaits `work`, rethrowing a constraint violation (or a conflict) as the domain error it means to the caller. */
export async function translateViolations<T>(work: Promise<T>, meanings: ViolationMeanings): Promise<T> {
  try {
    return await work;
  } catch (e: unknown) {
    const meaning = meaningOf(e, meanings);
    throw meaning === undefined ? e : await meaning();
  }
}
