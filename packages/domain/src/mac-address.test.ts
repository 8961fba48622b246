import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { InvalidArgumentError } from './domain-error.js';
import { macAddressOf, macAddressSuffix, nextMacAddressSuffix, parseMacAddress } from './mac-address.js';

const SUFFIXES = 2 ** 24;

describe('parsing MAC addresses', () => {
  it.each([
    ['BC:24:11:00:00:2A', 'BC:24:11:00:00:2A'],
    ['bc:24:11:0a:ff:2a', 'BC:24:11:0A:FF:2A'],
    ['02:00:00:00:00:00', '02:00:00:00:00:00'],
  ])('reads %s as %s', (text, canonical) => {
    expect(parseMacAddress(text, 'network.mac')).toBe(canonical);
  });

  it.each([
    ['BC:24:11:00:00', /six hexadecimal octets/],
    ['BC-24-11-00-00-2A', /six hexadecimal octets/],
    ['BC241100002A', /six hexadecimal octets/],
    ['BC:24:11:00:00:2G', /six hexadecimal octets/],
    [' BC:24:11:00:00:2A', /six hexadecimal octets/],
    ['01:00:5E:00:00:01', /unicast/],
    ['FF:FF:FF:FF:FF:FF', /unicast/],
  ])('refuses %j', (text, description) => {
    const parse = (): string => parseMacAddress(text, 'network.mac');
    expect(parse).toThrow(InvalidArgumentError);
    expect(parse).toThrow(description);
  });
});

describe('MAC addresses from a prefix and a suffix', () => {
  it('writes the upper-case colon form Proxmox uses', () => {
    expect(macAddressOf('bc:24:11', 42)).toBe('BC:24:11:00:00:2A');
    expect(macAddressOf('02:AB:CD', 0xffffff)).toBe('02:AB:CD:FF:FF:FF');
    expect(macAddressOf('02:AB:CD', 0)).toBe('02:AB:CD:00:00:00');
  });

  it('refuses a multicast prefix and a suffix beyond 24 bits', () => {
    expect(() => macAddressOf('01:00:5E', 1)).toThrow(/macAddressPrefix: must be a unicast prefix/);
    expect(() => macAddressOf('BC:24:11', SUFFIXES)).toThrow(RangeError);
    expect(() => macAddressOf('BC:24:11', -1)).toThrow(RangeError);
  });

  it('reads the suffix back only under the same prefix, in either case', () => {
    expect(macAddressSuffix('BC:24:11', 'bc:24:11:00:01:00')).toBe(256);
    expect(macAddressSuffix('bc:24:11', 'BC:24:11:FF:FF:FF')).toBe(0xffffff);
    expect(macAddressSuffix('BC:24:11', 'BC:24:12:00:00:01')).toBeUndefined();
    expect(macAddressSuffix('BC:24:11', 'not a mac')).toBeUndefined();
  });

  it('round-trips every suffix', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: SUFFIXES - 1 }), (suffix) => {
        const mac = macAddressOf('BC:24:11', suffix);
        expect(parseMacAddress(mac, 'mac')).toBe(mac);
        expect(macAddressSuffix('BC:24:11', mac)).toBe(suffix);
      }),
    );
  });
});

describe('the next free suffix', () => {
  it('counts up from zero and reuses a released suffix first', () => {
    expect(nextMacAddressSuffix([])).toBe(0);
    expect(nextMacAddressSuffix([0, 1, 2])).toBe(3);
    expect(nextMacAddressSuffix([0, 1, 3, 4])).toBe(2);
    expect(nextMacAddressSuffix([4, 0, 1, 1, 3])).toBe(2);
  });

  it('agrees with a brute-force search', () => {
    const used = fc.array(
      fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: -5, max: SUFFIXES + 5 })),
      {
        maxLength: 60,
      },
    );
    fc.assert(
      fc.property(used, (suffixes) => {
        const taken = new Set(suffixes);
        let expected = 0;
        while (taken.has(expected)) expected++;
        expect(nextMacAddressSuffix(suffixes)).toBe(expected);
      }),
    );
  });

  it('hands out distinct suffixes until a nearly full prefix runs out, then answers undefined', () => {
    const free = [5, 70_000, SUFFIXES - 1];
    // Every suffix is in use except the free ones, whose places hold a repeat of their predecessor: the
    // list stays sorted, as the database reads it, and handing a suffix out just writes it into its place.
    const used = Array.from({ length: SUFFIXES }, (_, i) => i);
    for (const suffix of free) used[suffix] = suffix - 1;
    const handedOut: number[] = [];
    for (let next = nextMacAddressSuffix(used); next !== undefined; next = nextMacAddressSuffix(used)) {
      expect(used[next]).not.toBe(next);
      handedOut.push(next);
      used[next] = next;
    }
    expect(handedOut).toEqual(free);
  });
});
