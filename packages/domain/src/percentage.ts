import { InvalidArgumentError } from './domain-error.js';
import { scaleMoneyAmount } from './money.js';
import type { Problem } from './node-settings.js';

/**
 * Percentages (percentage-priced addons, tax rates): JSON numbers from 0 to 100 with at most four decimals.
 * Inside they are bigint ten-thousandths of a percent, so that applying one to an amount rounds once.
 */
const PERCENTAGE_DECIMALS = 4;
export const MAX_PERCENTAGE = 100;

const UNITS_PER_PERCENT = 10n ** BigInt(PERCENTAGE_DECIMALS);
const UNITS_PER_WHOLE = BigInt(MAX_PERCENTAGE) * UNITS_PER_PERCENT;
/** The number as JavaScript prints it: the shortest decimal that reads back as the same number. */
const PERCENTAGE_TEXT = new RegExp(`^(\\d{1,3})(?:\\.(\\d{1,${PERCENTAGE_DECIMALS}}))?$`);

export function percentageProblem(value: number): Problem {
  if (value >= 0 && value <= MAX_PERCENTAGE && PERCENTAGE_TEXT.test(String(value))) return undefined;
  return `must be a number from 0 to ${MAX_PERCENTAGE} with at most ${PERCENTAGE_DECIMALS} decimals`;
}

/** Ten-thousandths of a percent: 12.5 → 125000n. */
export function parsePercentage(value: number, field: string): bigint {
  const problem = percentageProblem(value);
  const match = PERCENTAGE_TEXT.exec(String(value));
  if (problem !== undefined || match === null)
    throw InvalidArgumentError.field(field, problem ?? 'is invalid');
  const [, whole = '0', fraction = ''] = match;
  return BigInt(whole) * UNITS_PER_PERCENT + BigInt(fraction.padEnd(PERCENTAGE_DECIMALS, '0'));
}

/** Back to the number a caller sent: a ratio of two exact integers prints as the decimal it came from. */
export function formatPercentage(units: bigint): number {
  return Number(units) / Number(UNITS_PER_PERCENT);
}

/** That percentage of an amount in micro-units, rounded half up to the micro-unit. */
export function applyPercentage(micros: bigint, units: bigint): bigint {
  return scaleMoneyAmount(micros, units, UNITS_PER_WHOLE);
}
