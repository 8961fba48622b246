import { InvalidArgumentError } from './domain-error.js';
import type { Problem } from './node-settings.js';

/**
 * Money amounts. On the wire they are decimal strings with six decimals (`12.500000`), as in the NodeRings
 * API; inside they are integer micro-units in a bigint, so sums and products are exact and rounding happens
 * only where a rule says so (`scaleMoneyAmount`), never by accident of floating point.
 */
const MONEY_DECIMALS = 6;
/** `numeric(18, 6)`: the largest amount stored is 999 999 999 999.999999. */
const MAX_MONEY_INTEGER_DIGITS = 12;

const MICROS_PER_UNIT = 10n ** BigInt(MONEY_DECIMALS);
const AMOUNT = new RegExp(`^(\\d{1,${MAX_MONEY_INTEGER_DIGITS}})(?:\\.(\\d{1,${MONEY_DECIMALS}}))?$`);

export const ZERO_MONEY_AMOUNT = 0n;

export function moneyAmountProblem(text: string): Problem {
  if (AMOUNT.test(text)) return undefined;
  return `must be a non-negative decimal string with at most ${MAX_MONEY_INTEGER_DIGITS} integer digits and ${MONEY_DECIMALS} decimals, like 12.500000`;
}

/** The amount in micro-units; `field` names the value in the error when the text is not an amount. */
export function parseMoneyAmount(text: string, field: string): bigint {
  const match = AMOUNT.exec(text);
  if (match === null) throw InvalidArgumentError.field(field, moneyAmountProblem(text) ?? 'is invalid');
  const [, units = '0', fraction = ''] = match;
  return BigInt(units) * MICROS_PER_UNIT + BigInt(fraction.padEnd(MONEY_DECIMALS, '0'));
}

/** Always six decimals, so that equal amounts are equal strings. */
export function formatMoneyAmount(micros: bigint): string {
  const sign = micros < 0n ? '-' : '';
  const magnitude = micros < 0n ? -micros : micros;
  const fraction = (magnitude % MICROS_PER_UNIT).toString().padStart(MONEY_DECIMALS, '0');
  return `${sign}${(magnitude / MICROS_PER_UNIT).toString()}.${fraction}`;
}

/** The canonical spelling of an amount (`7.5` → `7.500000`). */
export function normalizeMoneyAmount(text: string, field: string): string {
  return formatMoneyAmount(parseMoneyAmount(text, field));
}

/**
 * `micros × numerator / denominator`, rounded half up to the micro-unit: the one rounding rule of every
 * price that is a fraction of another (a percentage, a part of a month).
 */
export function scaleMoneyAmount(micros: bigint, numerator: bigint, denominator: bigint): bigint {
  if (micros < 0n || numerator < 0n || denominator <= 0n)
    throw new RangeError('scaleMoneyAmount takes non-negative amounts and a positive denominator');
  const product = micros * numerator;
  const quotient = product / denominator;
  return 2n * (product % denominator) >= denominator ? quotient + 1n : quotient;
}
