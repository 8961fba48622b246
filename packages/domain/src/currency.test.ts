import { describe, expect, it } from 'vitest';

import { amountInCurrencyProblem, currencyMinorUnitDecimals } from './currency.js';

describe('amounts in a currency', () => {
  it.each([
    ['EUR', 2],
    ['USD', 2],
    ['JPY', 0],
    ['BHD', 3],
  ])('knows %s has %i decimals', (code, decimals) => {
    expect(currencyMinorUnitDecimals(code)).toBe(decimals);
  });

  it.each([
    ['3.14', 'EUR'],
    ['3.140000', 'EUR'],
    ['3', 'EUR'],
    ['500', 'JPY'],
    ['500.000000', 'JPY'],
    ['1.125', 'BHD'],
  ])('takes %s %s', (amount, currency) => {
    expect(amountInCurrencyProblem(amount, currency)).toBeUndefined();
  });

  it.each([
    ['3.14159', 'EUR', 'must have at most 2 decimals: the smallest EUR unit is 0.01'],
    ['0.001', 'USD', 'must have at most 2 decimals: the smallest USD unit is 0.01'],
    ['500.5', 'JPY', 'must be a whole amount: JPY has no smaller unit'],
    ['1.1255', 'BHD', 'must have at most 3 decimals: the smallest BHD unit is 0.001'],
  ])('refuses %s %s', (amount, currency, problem) => {
    expect(amountInCurrencyProblem(amount, currency)).toBe(problem);
  });

  it('lets an hourly rate carry four more decimals, up to the six stored', () => {
    expect(amountInCurrencyProblem('0.0052', 'EUR', 'rate')).toBeUndefined();
    expect(amountInCurrencyProblem('0.000001', 'EUR', 'rate')).toBeUndefined();
    expect(amountInCurrencyProblem('0.1234', 'JPY', 'rate')).toBeUndefined();
    expect(amountInCurrencyProblem('0.00001', 'JPY', 'rate')).toContain('at most 4 decimals');
  });

  it('leaves amounts and codes that are none to their own rules', () => {
    expect(amountInCurrencyProblem('abc', 'EUR')).toBeUndefined();
    expect(amountInCurrencyProblem('1.234', 'XXXX')).toBeUndefined();
  });
});
