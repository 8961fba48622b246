import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { InvalidArgumentError } from './domain-error.js';
import {
  formatMoneyAmount,
  moneyAmountProblem,
  normalizeMoneyAmount,
  parseMoneyAmount,
  scaleMoneyAmount,
} from './money.js';
import { applyPercentage, formatPercentage, parsePercentage, percentageProblem } from './percentage.js';

/** Every amount a price may hold: up to twelve integer digits and six decimals. */
const micros = fc.bigInt({ min: 0n, max: 10n ** 18n - 1n });

/** The oracle: decimal text → micro-units by digit manipulation alone, no parser of ours involved. */
function oracleMicros(text: string): bigint {
  const [units = '0', fraction = ''] = text.split('.');
  return BigInt(units + fraction.padEnd(6, '0'));
}

describe('money amounts', () => {
  it.each([
    ['0', 0n],
    ['0.000001', 1n],
    ['12.5', 12_500_000n],
    ['007.250000', 7_250_000n],
    ['999999999999.999999', 999_999_999_999_999_999n],
  ])('parses %s', (text, expected) => {
    expect(parseMoneyAmount(text, 'unitAmount')).toBe(expected);
  });

  it.each(['', '-1', '1.0000001', '1e3', '.5', '5.', ' 5', '1,5', '1000000000000', 'NaN'])(
    'refuses %j naming the field',
    (text) => {
      expect(moneyAmountProblem(text)).toEqual(expect.any(String));
      expect(() => parseMoneyAmount(text, 'planPrices.0.unitAmount')).toThrow(InvalidArgumentError);
      try {
        parseMoneyAmount(text, 'planPrices.0.unitAmount');
      } catch (e: unknown) {
        expect((e as InvalidArgumentError).fieldViolations[0]?.field).toBe('planPrices.0.unitAmount');
      }
    },
  );

  it('always formats six decimals', () => {
    expect(formatMoneyAmount(0n)).toBe('0.000000');
    expect(formatMoneyAmount(1n)).toBe('0.000001');
    expect(formatMoneyAmount(12_500_000n)).toBe('12.500000');
    expect(normalizeMoneyAmount('7.5', 'x')).toBe('7.500000');
  });

  it('round-trips every amount', () => {
    fc.assert(
      fc.property(micros, (m) => {
        const text = formatMoneyAmount(m);
        expect(text).toMatch(/^\d+\.\d{6}$/);
        expect(parseMoneyAmount(text, 'x')).toBe(m);
      }),
    );
  });

  it('adds and multiplies without losing a micro-unit, where floating point would', () => {
    fc.assert(
      fc.property(micros, micros, fc.integer({ min: 0, max: 100_000 }), (a, b, n) => {
        const [ta, tb] = [formatMoneyAmount(a), formatMoneyAmount(b)];
        const sum = parseMoneyAmount(ta, 'a') + parseMoneyAmount(tb, 'b');
        expect(formatMoneyAmount(sum)).toBe(formatMoneyAmount(oracleMicros(ta) + oracleMicros(tb)));
        const product = parseMoneyAmount(ta, 'a') * BigInt(n);
        expect(product).toBe(oracleMicros(ta) * BigInt(n));
      }),
    );
    // The classic: 0.1 + 0.2 in floating point is 0.30000000000000004.
    expect(formatMoneyAmount(parseMoneyAmount('0.1', 'a') + parseMoneyAmount('0.2', 'b'))).toBe('0.300000');
  });

  it('scales with one half-up rounding, never more than half a micro-unit off', () => {
    fc.assert(
      fc.property(
        micros,
        fc.bigInt({ min: 0n, max: 10n ** 6n }),
        fc.bigInt({ min: 1n, max: 10n ** 6n }),
        (m, n, d) => {
          const scaled = scaleMoneyAmount(m, n, d);
          const error = scaled * d - m * n;
          expect(2n * error).toBeLessThanOrEqual(d);
          expect(-2n * error).toBeLessThan(d);
        },
      ),
    );
    expect(scaleMoneyAmount(1n, 1n, 2n)).toBe(1n);
    expect(scaleMoneyAmount(1n, 1n, 3n)).toBe(0n);
    expect(scaleMoneyAmount(5n, 1n, 2n)).toBe(3n);
    expect(() => scaleMoneyAmount(1n, 1n, 0n)).toThrow(RangeError);
  });
});

describe('percentages', () => {
  it.each([
    [0, 0n],
    [12.5, 125_000n],
    [0.0001, 1n],
    [100, 1_000_000n],
  ])('parses %d', (value, units) => {
    expect(parsePercentage(value, 'percentageValue')).toBe(units);
    expect(formatPercentage(units)).toBe(value);
  });

  it.each([-1, 100.0001, 0.00001, Number.NaN, Number.POSITIVE_INFINITY, 1e-7])('refuses %d', (value) => {
    expect(percentageProblem(value)).toEqual(expect.any(String));
  });

  it('reads every accepted number back unchanged', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (units) => {
        const value = formatPercentage(BigInt(units));
        expect(parsePercentage(value, 'p')).toBe(BigInt(units));
      }),
    );
  });

  it('applies a percentage exactly, rounding half up to the micro-unit', () => {
    expect(applyPercentage(10_000_000n, 125_000n)).toBe(1_250_000n);
    expect(applyPercentage(1n, 500_000n)).toBe(1n);
    expect(applyPercentage(1n, 499_999n)).toBe(0n);
    expect(applyPercentage(3n, 1_000_000n)).toBe(3n);
  });
});
