import { describe, expect, it } from 'vitest';

import {
  addressList,
  hostname,
  isAddressOrPrefix,
  listItems,
  moneyAmount,
  optional,
  portOrRange,
  validate,
} from './form-validation.js';

describe('form checks', () => {
  it('takes host names as RFC 1123 does', () => {
    expect(hostname('web-1')).toBeUndefined();
    expect(hostname('web-1.example.com')).toBeUndefined();
    expect(hostname('-web')).toBeDefined();
    expect(hostname('web_1')).toBeDefined();
    expect(hostname('a'.repeat(64))).toBeDefined();
  });

  it('takes a port or a range, low to high, within 1–65535', () => {
    expect(portOrRange('22')).toBeUndefined();
    expect(portOrRange('8000-9000')).toBeUndefined();
    expect(portOrRange('0')).toBeDefined();
    expect(portOrRange('9000-8000')).toBeDefined();
    expect(portOrRange('65536')).toBeDefined();
    expect(portOrRange('22,80')).toBeDefined();
  });

  it('knows IPv4 and IPv6 addresses and prefixes', () => {
    for (const ok of [
      '192.0.2.10',
      '192.0.2.0/24',
      '2001:db8::1',
      '2001:db8::/48',
      '::/0',
      '0.0.0.0/0',
      '::ffff:192.0.2.1',
      '1:2:3:4:5:6:7:8',
    ])
      expect(isAddressOrPrefix(ok), ok).toBe(true);
    for (const bad of [
      '192.0.2.256',
      '192.0.2.0/33',
      '2001:db8::/129',
      '2001:::1',
      'example.com',
      '1.2.3.4/8/9',
    ])
      expect(isAddressOrPrefix(bad), bad).toBe(false);
  });

  it('splits lists on commas and spaces and names the wrong items', () => {
    expect(listItems(' 192.0.2.1, 192.0.2.2  2001:db8::1,,')).toEqual([
      '192.0.2.1',
      '192.0.2.2',
      '2001:db8::1',
    ]);
    expect(addressList('192.0.2.1, nope')).toBe('Not an address or prefix: nope.');
  });

  it('takes money with up to six decimals', () => {
    expect(moneyAmount('12')).toBeUndefined();
    expect(moneyAmount('12.123456')).toBeUndefined();
    expect(moneyAmount('12.1234567')).toBeDefined();
    expect(moneyAmount('-1')).toBeDefined();
  });

  it('reports the first failing check per field and skips optional empty ones', () => {
    const errors = validate(
      { a: '', b: '', c: 'x' },
      {
        a: [(v) => (v === '' ? 'required' : undefined), () => 'second'],
        b: [optional(portOrRange)],
        c: [optional(portOrRange)],
      },
    );
    expect(Object.keys(errors)).toEqual(['a', 'c']);
    expect(errors.a).toBe('required');
    expect(errors.c).toMatch(/port/);
  });
});
