import type { Problem } from './node-settings.js';

const CURRENCY_CODE = /^[A-Z]{3}$/;

/**
 * An ISO 4217 code in use, as the runtime's ICU data lists them (EUR, USD, CHF). Checked only when a price
 * is written, so a code ICU later retires stays readable on prices that have it.
 */
export function currencyProblem(code: string): Problem {
  if (CURRENCY_CODE.test(code) && Intl.supportedValuesOf('currency').includes(code)) return undefined;
  return 'must be an ISO 4217 currency code in upper case, like EUR or USD';
}

/** How many more decimals than the currency's minor unit a rate (a price per hour) may carry. */
export const RATE_EXTRA_DECIMALS = 4;
/** Amounts are stored with six decimals (`numeric(18, 6)`), so no rule may allow more. */
const STORED_DECIMALS = 6;

/**
 * The decimals of the currency's minor unit, as ICU's data has them: EUR and USD 2, JPY and KRW 0, BHD
 * and KWD 3. ICU follows what is used in practice, so a few currencies (HUF, TWD) get 0 where ISO 4217
 * still lists 2.
 */
export function currencyMinorUnitDecimals(code: string): number {
  const { maximumFractionDigits } = new Intl.NumberFormat('en', {
    style: 'currency',
    currency: code,
  }).resolvedOptions();
  // Always set for the currency style; the type allows its absence.
  return maximumFractionDigits ?? STORED_DECIMALS;
}

/**
 * Why `amount` (a decimal string) cannot be charged in `currency`: more significant decimals than its
 * minor unit has (3.14159 EUR). A rate (`'rate'`, a price per hour) may carry RATE_EXTRA_DECIMALS more,
 * since only its sum over the hours is charged. Undefined for an amount or a code that is no amount or
 * code at all: their own rules say so.
 */
export function amountInCurrencyProblem(
  amount: string,
  currency: string,
  kind: 'charge' | 'rate' = 'charge',
): Problem {
  if (currencyProblem(currency) !== undefined) return undefined;
  const fraction = /^\d+(?:\.(\d*))?$/.exec(amount)?.[1];
  if (fraction === undefined) return undefined;
  const minor = currencyMinorUnitDecimals(currency);
  const allowed = kind === 'rate' ? Math.min(minor + RATE_EXTRA_DECIMALS, STORED_DECIMALS) : minor;
  if (fraction.replace(/0+$/, '').length <= allowed) return undefined;
  if (kind === 'rate')
    return `must have at most ${String(allowed)} decimals for an hourly rate in ${currency} (${String(RATE_EXTRA_DECIMALS)} more than its smallest unit)`;
  if (allowed === 0) return `must be a whole amount: ${currency} has no smaller unit`;
  return `must have at most ${String(allowed)} decimals: the smallest ${currency} unit is ${(10 ** -allowed).toFixed(allowed)}`;
}
