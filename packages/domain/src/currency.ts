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
