import { describe, expect, it } from 'vitest';
import { formatGoFloat } from './go-float.js';

describe('formatGoFloat', () => {
  it.each([
    [0, '0'],
    [1, '1'],
    [0.5, '0.5'],
    [123456, '123456'],
    [1e6, '1e+06'],
    [1048576, '1.048576e+06'],
    [4294967296, '4.294967296e+09'],
    [67431845888, '6.7431845888e+10'],
    [2 ** 60, '1.152921504606847e+18'],
    [1234567.5, '1.2345675e+06'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [-2500000, '-2.5e+06'],
    [NaN, 'NaN'],
    [Infinity, '+Inf'],
    [-Infinity, '-Inf'],
  ])('writes %d as Go does: %s', (value, text) => {
    expect(formatGoFloat(value)).toBe(text);
  });
});
