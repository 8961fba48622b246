import { isIP } from 'node:net';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { InvalidArgumentError } from './domain-error.js';
import {
  formatIpAddress,
  formatIpPrefix,
  gatewayProblem,
  parseIpAddress,
  parseIpPrefix,
  prefixContains,
  prefixesOverlap,
  usableHostRange,
  type IpAddress,
  type IpFamily,
  type IpPrefix,
} from './ip-prefix.js';

const BITS = { ipv4: 32, ipv6: 128 } as const;

function normalised(text: string): string {
  return formatIpAddress(parseIpAddress(text, 'ip'));
}

function problemOf(parse: () => unknown): { field: string; description: string } | undefined {
  try {
    parse();
    return undefined;
  } catch (e: unknown) {
    if (!(e instanceof InvalidArgumentError)) throw e;
    expect(e.fieldViolations).toHaveLength(1);
    return e.fieldViolations[0];
  }
}

const address = (family: IpFamily, value: bigint): IpAddress => ({ family, value });
const prefix = (text: string): IpPrefix => parseIpPrefix(text, 'cidr');
const ip = (text: string): IpAddress => parseIpAddress(text, 'ip');

describe('parsing and formatting addresses', () => {
  it.each([
    ['192.0.2.10', '192.0.2.10'],
    ['0.0.0.0', '0.0.0.0'],
    ['255.255.255.255', '255.255.255.255'],
    ['2001:DB8::1', '2001:db8::1'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:db8::1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
    ['1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:0'],
    ['::', '::'],
    ['::1', '::1'],
    ['fe80::', 'fe80::'],
    ['::ffff:192.0.2.1', '::ffff:192.0.2.1'],
    ['::FFFF:c000:0201', '::ffff:192.0.2.1'],
    ['64:ff9b::192.0.2.1', '64:ff9b::c000:201'],
    ['1:2:3:4:5:6:192.0.2.1', '1:2:3:4:5:6:c000:201'],
  ])('reads %s as %s (RFC 5952)', (text, canonical) => {
    expect(normalised(text)).toBe(canonical);
  });

  it.each([
    ['', /IPv4 address like/],
    ['example.com', /IPv4 address like/],
    ['192.0.2', /IPv4 address like/],
    ['192.0.2.1.5', /IPv4 address like/],
    [' 192.0.2.1', /IPv4 address like/],
    ['192.0.2.1 ', /IPv4 address like/],
    ['192.0.2.-1', /IPv4 address like/],
    ['0x7f.0.0.1', /IPv4 address like/],
    ['192.0.2.256', /octet 256, above 255/],
    ['192.0.02.1', /leading zeros/],
    ['2001:db8::1::1', /"::" only once/],
    ['2001:db8:::1', /IPv4 address like/],
    ['2001:db8::g', /"g", not a group/],
    ['2001:db8::12345', /"12345", not a group/],
    ['1:2:3:4:5:6:7:8:9', /8 groups/],
    ['1:2:3:4:5:6:7', /8 groups/],
    ['1:2:3:4:5:6:7:8::', /8 groups/],
    ['::1:2:3:4:5:6:7:8', /8 groups/],
    [':1:2:3:4:5:6:7', /IPv4 address like/],
    ['fe80::1%eth0', /zone index/],
    ['192.0.2.1::', /only as its last 32 bits/],
    ['::192.0.2.256', /above 255/],
    ['::ffff:192.0.2', /IPv4 address like/],
  ])('refuses %j', (text, description) => {
    expect(problemOf(() => parseIpAddress(text, 'network.gateway'))).toEqual({
      field: 'network.gateway',
      description: expect.stringMatching(description) as unknown,
    });
  });

  it('gives one spelling per address, and reads back every spelling it gives', () => {
    fc.assert(
      fc.property(arbitraryAddress(), (a) => {
        const text = formatIpAddress(a);
        expect(parseIpAddress(text, 'ip')).toEqual(a);
        expect(normalised(text)).toBe(text);
      }),
    );
  });

  it('spells IPv6 as the WHATWG URL serializer does (RFC 5952), IPv4-mapped addresses aside', () => {
    fc.assert(
      fc.property(arbitraryIpv6Value(), (value) => {
        fc.pre(value >> 32n !== 0xffffn);
        expect(formatIpAddress(address('ipv6', value))).toBe(
          new URL(`http://[${hexGroups(value)}]/`).hostname.slice(1, -1),
        );
      }),
    );
  });

  it('reads the full, upper-case, zero-padded IPv6 spelling as the same address', () => {
    fc.assert(
      fc.property(arbitraryIpv6Value(), (value) => {
        const padded = hexGroups(value)
          .split(':')
          .map((group) => group.padStart(4, '0').toUpperCase())
          .join(':');
        expect(parseIpAddress(padded, 'ip').value).toBe(value);
      }),
    );
  });

  it("accepts exactly the strings Node's own address check accepts", () => {
    const token = fc.constantFrom(
      '0',
      '1',
      '9',
      'a',
      'F',
      'ff',
      'ffff',
      'fffff',
      '00',
      '01',
      '255',
      '256',
      ':',
      '::',
      '.',
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 18 }), (tokens) => {
        const text = tokens.join('');
        expect(problemOf(() => parseIpAddress(text, 'ip')) === undefined).toBe(isIP(text) !== 0);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('parsing prefixes', () => {
  it.each([
    ['192.0.2.0/24', '192.0.2.0/24'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['192.0.2.7/32', '192.0.2.7/32'],
    ['2001:DB8::/48', '2001:db8::/48'],
    ['2001:db8:0:0:0:0:0:0/64', '2001:db8::/64'],
    ['::/0', '::/0'],
  ])('reads %s as %s', (text, canonical) => {
    expect(formatIpPrefix(parseIpPrefix(text, 'cidr'))).toBe(canonical);
  });

  it.each([
    ['192.0.2.10/24', 'has host bits set: the network is 192.0.2.0/24'],
    ['2001:db8::1/64', 'has host bits set: the network is 2001:db8::/64'],
    ['2001:db8:1234::/33', 'has host bits set: the network is 2001:db8::/33'],
  ])('refuses %s, naming the network it belongs to', (text, description) => {
    expect(problemOf(() => parseIpPrefix(text, 'cidr'))).toEqual({ field: 'cidr', description });
  });

  it.each([
    ['192.0.2.0', /CIDR prefix like/],
    ['192.0.2.0/33', /from \/0 to \/32/],
    ['2001:db8::/129', /from \/0 to \/128/],
    ['192.0.2.0/024', /from \/0 to \/32/],
    ['192.0.2.0/', /from \/0 to \/32/],
    ['192.0.2.0/24/8', /from \/0 to \/32/],
    ['192.0.2.0/+24', /from \/0 to \/32/],
    ['192.0.2.0/ 24', /from \/0 to \/32/],
    ['192.0.2/24', /IPv4 address like/],
  ])('refuses %j', (text, description) => {
    expect(problemOf(() => parseIpPrefix(text, 'reservedPrefixes.0'))).toEqual({
      field: 'reservedPrefixes.0',
      description: expect.stringMatching(description) as unknown,
    });
  });

  it('reads back every prefix it formats', () => {
    fc.assert(
      fc.property(arbitraryPrefix(), (p) => {
        expect(parseIpPrefix(formatIpPrefix(p), 'cidr')).toEqual(p);
      }),
    );
  });
});

describe('containment and overlap', () => {
  it('knows which addresses and prefixes lie in a prefix', () => {
    const net = prefix('192.0.2.0/24');
    expect(prefixContains(net, ip('192.0.2.0'))).toBe(true);
    expect(prefixContains(net, ip('192.0.2.255'))).toBe(true);
    expect(prefixContains(net, ip('192.0.3.0'))).toBe(false);
    expect(prefixContains(net, prefix('192.0.2.128/25'))).toBe(true);
    expect(prefixContains(net, prefix('192.0.2.0/24'))).toBe(true);
    expect(prefixContains(net, prefix('192.0.0.0/22'))).toBe(false);
    expect(prefixContains(prefix('::/0'), ip('192.0.2.1'))).toBe(false);
    expect(prefixContains(prefix('0.0.0.0/0'), ip('::1'))).toBe(false);
  });

  it('treats prefixes as overlapping when one holds the other, never across families', () => {
    expect(prefixesOverlap(prefix('10.0.0.0/8'), prefix('10.20.0.0/16'))).toBe(true);
    expect(prefixesOverlap(prefix('10.20.0.0/16'), prefix('10.0.0.0/8'))).toBe(true);
    expect(prefixesOverlap(prefix('10.0.0.0/9'), prefix('10.128.0.0/9'))).toBe(false);
    expect(prefixesOverlap(prefix('0.0.0.0/0'), prefix('::/0'))).toBe(false);
  });

  it('agrees with a brute-force comparison of address ranges', () => {
    const pair = fc
      .constantFrom<IpFamily>('ipv4', 'ipv6')
      .chain((family) =>
        fc.tuple(arbitraryPrefix(family), arbitraryPrefix(family), arbitraryIpValue(family)),
      );
    fc.assert(
      fc.property(pair, ([a, b, value]) => {
        const range = (p: IpPrefix): [bigint, bigint] => [
          p.network,
          p.network + 2n ** BigInt(BITS[p.family] - p.length) - 1n,
        ];
        const [aFirst, aLast] = range(a);
        const [bFirst, bLast] = range(b);
        expect(prefixesOverlap(a, b)).toBe(aFirst <= bLast && bFirst <= aLast);
        expect(prefixContains(a, b)).toBe(aFirst <= bFirst && bLast <= aLast);
        expect(prefixContains(a, address(a.family, value))).toBe(aFirst <= value && value <= aLast);
      }),
    );
  });
});

describe('usable hosts and gateways', () => {
  it.each([
    ['192.0.2.0/24', '192.0.2.1', '192.0.2.254'],
    ['192.0.2.0/30', '192.0.2.1', '192.0.2.2'],
    ['192.0.2.0/31', '192.0.2.0', '192.0.2.1'],
    ['192.0.2.7/32', '192.0.2.7', '192.0.2.7'],
    ['2001:db8::/64', '2001:db8::1', '2001:db8::ffff:ffff:ffff:ffff'],
    ['2001:db8::/126', '2001:db8::1', '2001:db8::3'],
    ['2001:db8::/127', '2001:db8::', '2001:db8::1'],
    ['2001:db8::7/128', '2001:db8::7', '2001:db8::7'],
  ])('%s has hosts from %s to %s', (cidr, first, last) => {
    const range = usableHostRange(prefix(cidr));
    expect([formatIpAddress(range.first), formatIpAddress(range.last)]).toEqual([first, last]);
  });

  it('wants the gateway inside the prefix, of its family, and a usable host', () => {
    const v4 = prefix('192.0.2.0/24');
    expect(gatewayProblem(v4, ip('192.0.2.1'))).toBeUndefined();
    expect(gatewayProblem(v4, ip('192.0.2.254'))).toBeUndefined();
    expect(gatewayProblem(v4, ip('192.0.2.0'))).toMatch(/not its network or broadcast address/);
    expect(gatewayProblem(v4, ip('192.0.2.255'))).toMatch(/not its network or broadcast address/);
    expect(gatewayProblem(v4, ip('192.0.3.1'))).toBe('must lie inside the prefix 192.0.2.0/24');
    expect(gatewayProblem(v4, ip('2001:db8::1'))).toBe(
      'must be an IPv4 address, like the prefix 192.0.2.0/24',
    );
    expect(gatewayProblem(prefix('192.0.2.0/31'), ip('192.0.2.0'))).toBeUndefined();
    const v6 = prefix('2001:db8::/64');
    expect(gatewayProblem(v6, ip('2001:db8::1'))).toBeUndefined();
    expect(gatewayProblem(v6, ip('2001:db8::ffff:ffff:ffff:ffff'))).toBeUndefined();
    expect(gatewayProblem(v6, ip('2001:db8::'))).toMatch(/subnet-router anycast/);
    expect(gatewayProblem(v6, ip('fe80::1'))).toBe('must lie inside the prefix 2001:db8::/64');
  });
});

function arbitraryIpv6Value(): fc.Arbitrary<bigint> {
  // Mostly zero groups, so that runs of zeros (and the "::" choice) are common.
  return fc
    .array(fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 0xffff })), {
      minLength: 8,
      maxLength: 8,
    })
    .map((groups) => groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n));
}

function arbitraryIpValue(family: IpFamily): fc.Arbitrary<bigint> {
  return family === 'ipv6' ? arbitraryIpv6Value() : fc.bigInt({ min: 0n, max: 2n ** 32n - 1n });
}

function arbitraryAddress(): fc.Arbitrary<IpAddress> {
  return fc.oneof(
    arbitraryIpValue('ipv4').map((value) => address('ipv4', value)),
    arbitraryIpValue('ipv6').map((value) => address('ipv6', value)),
    fc.bigInt({ min: 0n, max: 2n ** 32n - 1n }).map((v4) => address('ipv6', (0xffffn << 32n) | v4)),
  );
}

function arbitraryPrefix(family?: IpFamily): fc.Arbitrary<IpPrefix> {
  const families = family === undefined ? fc.constantFrom<IpFamily>('ipv4', 'ipv6') : fc.constant(family);
  return families.chain((f) =>
    fc.tuple(arbitraryIpValue(f), fc.integer({ min: 0, max: BITS[f] })).map(([value, length]) => {
      const hostBits = BigInt(BITS[f] - length);
      return { family: f, network: (value >> hostBits) << hostBits, length };
    }),
  );
}

/** Eight uncompressed groups, a spelling the formatter never produces. */
function hexGroups(value: bigint): string {
  return Array.from({ length: 8 }, (_, i) => ((value >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(
    ':',
  );
}
