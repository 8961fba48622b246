import { describe, expect, test } from 'vitest';

import { PveInvalidArgumentError } from './errors.js';
import { encodeForm } from './form-encoding.js';

describe('encodeForm', () => {
  test('booleans become 1/0, numbers plain decimals, undefined is left out', () => {
    expect(encodeForm({ full: true, start: false, newid: 1042, cpulimit: 0.5, pool: undefined })).toBe(
      'full=1&start=0&newid=1042&cpulimit=0.5',
    );
  });

  test('never uses exponent notation', () => {
    expect(encodeForm({ big: 1e21, small: 1e-7 })).toBe('big=1000000000000000000000&small=0.0000001');
  });

  test('percent-encodes names and values, a space as %20', () => {
    expect(encodeForm({ description: 'a b&c=d+e', 'notes-template': '{{guestname}}' })).toBe(
      'description=a%20b%26c%3Dd%2Be&notes-template=%7B%7Bguestname%7D%7D',
    );
  });

  test('round-trips through a standard form decoder', () => {
    const values = { net0: 'virtio=BC:24:11:00:00:2A,bridge=vmbr0,firewall=1', name: 'NR-1f0e', x: 'ü/?#%' };
    expect(Object.fromEntries(new URLSearchParams(encodeForm(values)))).toEqual(values);
  });

  test('refuses NaN and infinities', () => {
    expect(() => encodeForm({ cores: Number.NaN })).toThrow(PveInvalidArgumentError);
    expect(() => encodeForm({ cores: Number.POSITIVE_INFINITY })).toThrow(PveInvalidArgumentError);
  });
});
