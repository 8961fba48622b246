import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  compileFirewallRules,
  MAX_ADDRESS_LIST_LENGTH,
  type CompiledFirewallRule,
  type FirewallResolution,
  type PositionedFirewallRule,
} from './firewall-compiler.js';
import { proxmoxProtocolOf, type FirewallProtocol } from './firewall-protocol.js';
import type { FirewallEndpoint, FirewallRuleSpec } from './firewall-rule.js';
import { parseIpAddress, parseIpPrefix, prefixContains, type IpAddress, type IpFamily } from './ip-prefix.js';

const NONE: FirewallResolution = { addressGroups: new Map(), vmTags: new Map() };

function endpoint(parts: Partial<FirewallEndpoint>): FirewallEndpoint {
  return { ips: [], addressGroupIds: [], vmTags: [], ...parts };
}

function rule(spec: Partial<FirewallRuleSpec>, id = 'r1', position = 0): PositionedFirewallRule {
  return {
    id,
    position,
    rule: {
      direction: 'FIREWALL_DIRECTION_INGRESS',
      action: 'FIREWALL_ACTION_ACCEPT',
      protocol: 'FIREWALL_PROTOCOL_ANY',
      ...spec,
    },
  };
}

describe('compiling a ruleset', () => {
  it('resolves tags to the addresses of the VMs carrying them, one rule per address family', () => {
    const resolution: FirewallResolution = {
      addressGroups: new Map(),
      vmTags: new Map([['office', ['198.51.100.7/32', '2001:db8::7/128', '198.51.100.8/32']]]),
    };
    const compiled = compileFirewallRules(
      [
        rule({
          protocol: 'FIREWALL_PROTOCOL_TCP',
          destinationPorts: '22',
          source: endpoint({ vmTags: ['office'] }),
        }),
      ],
      resolution,
    );
    expect(compiled).toEqual([
      {
        direction: 'in',
        action: 'ACCEPT',
        protocol: 'tcp',
        destinationPorts: '22',
        sources: ['198.51.100.7/32', '198.51.100.8/32'],
        comment: 'r1',
      },
      {
        direction: 'in',
        action: 'ACCEPT',
        protocol: 'tcp',
        destinationPorts: '22',
        sources: ['2001:db8::7/128'],
        comment: 'r1',
      },
    ]);
  });

  it('leaves out a rule whose source names only an empty tag, ACCEPT or DROP, and never widens it to any address', () => {
    const compiled = compileFirewallRules(
      [
        rule({ action: 'FIREWALL_ACTION_ACCEPT', source: endpoint({ vmTags: ['nobody'] }) }, 'accept', 0),
        rule({ action: 'FIREWALL_ACTION_DROP', source: endpoint({ vmTags: ['nobody'] }) }, 'drop', 1),
        rule({ action: 'FIREWALL_ACTION_DROP', source: endpoint({ addressGroupIds: ['empty'] }) }, 'g', 2),
        rule({ action: 'FIREWALL_ACTION_DROP' }, 'last', 3),
      ],
      { addressGroups: new Map([['empty', []]]), vmTags: new Map() },
    );
    expect(compiled).toEqual([{ direction: 'in', action: 'DROP', comment: 'last' }]);
  });

  it('keeps the parts of an endpoint that resolve when others do not', () => {
    const compiled = compileFirewallRules(
      [rule({ source: endpoint({ ips: ['192.0.2.1'], vmTags: ['nobody'] }) })],
      NONE,
    );
    expect(compiled.map((r) => r.sources)).toEqual([['192.0.2.1/32']]);
  });

  it('merges prefixes inside others, and keeps "every address" as it is', () => {
    const resolution: FirewallResolution = {
      addressGroups: new Map([
        ['corp', ['10.0.0.0/8', '10.1.0.0/16', '0.0.0.0/0']],
        ['v6', ['::/0', '2001:db8::/32']],
      ]),
      vmTags: new Map(),
    };
    const compiled = compileFirewallRules(
      [rule({ source: endpoint({ ips: ['10.2.3.4'], addressGroupIds: ['corp', 'v6'] }) })],
      resolution,
    );
    expect(compiled.map((r) => r.sources)).toEqual([['0.0.0.0/0'], ['::/0']]);
  });

  it('gives a protocol of one family only the rules of that family', () => {
    const source = endpoint({ ips: ['192.0.2.0/24', '2001:db8::/64'] });
    expect(
      compileFirewallRules([rule({ protocol: 'FIREWALL_PROTOCOL_ICMP', source })], NONE).map(
        (r) => r.sources,
      ),
    ).toEqual([['192.0.2.0/24']]);
    expect(
      compileFirewallRules([rule({ protocol: 'FIREWALL_PROTOCOL_IPV6_ICMP', source })], NONE).map((r) => [
        r.protocol,
        r.sources,
      ]),
    ).toEqual([['ipv6-icmp', ['2001:db8::/64']]]);
    // ICMPv4 from IPv6 addresses only can never match.
    expect(
      compileFirewallRules(
        [rule({ protocol: 'FIREWALL_PROTOCOL_ICMP', source: endpoint({ ips: ['2001:db8::1'] }) })],
        NONE,
      ),
    ).toEqual([]);
  });

  it('pairs source and destination of the same family only', () => {
    const compiled = compileFirewallRules(
      [
        rule({
          direction: 'FIREWALL_DIRECTION_EGRESS',
          source: endpoint({ ips: ['192.0.2.1'] }),
          destination: endpoint({ ips: ['198.51.100.0/24', '2001:db8::/48'] }),
        }),
      ],
      NONE,
    );
    expect(compiled).toEqual([
      {
        direction: 'out',
        action: 'ACCEPT',
        sources: ['192.0.2.1/32'],
        destinations: ['198.51.100.0/24'],
        comment: 'r1',
      },
    ]);
  });

  it('writes port ranges as Proxmox does and leaves ANY without a protocol', () => {
    const [compiled] = compileFirewallRules(
      [rule({ protocol: 'FIREWALL_PROTOCOL_UDP', sourcePorts: '53', destinationPorts: '8000-9000' })],
      NONE,
    );
    expect(compiled).toEqual({
      direction: 'in',
      action: 'ACCEPT',
      protocol: 'udp',
      sourcePorts: '53',
      destinationPorts: '8000:9000',
      comment: 'r1',
    });
    expect(compileFirewallRules([rule({})], NONE)).toEqual([
      { direction: 'in', action: 'ACCEPT', comment: 'r1' },
    ]);
  });

  it('orders ingress before egress, each by position, whatever order the rules come in', () => {
    const compiled = compileFirewallRules(
      [
        rule({ direction: 'FIREWALL_DIRECTION_EGRESS' }, 'out-1', 1),
        rule({ direction: 'FIREWALL_DIRECTION_INGRESS' }, 'in-1', 1),
        rule({ direction: 'FIREWALL_DIRECTION_EGRESS' }, 'out-0', 0),
        rule({ direction: 'FIREWALL_DIRECTION_INGRESS' }, 'in-0', 0),
      ],
      NONE,
    );
    expect(compiled.map((r) => r.comment)).toEqual(['in-0', 'in-1', 'out-0', 'out-1']);
  });

  it('splits a list too long for one Proxmox rule into rules that together hold it', () => {
    const addresses = Array.from(
      { length: 60 },
      (_, i) => `2001:db8:1234:5678:9abc:def0:1234:${(i + 1).toString(16)}`,
    );
    const compiled = compileFirewallRules([rule({ source: endpoint({ vmTags: ['many'] }) })], {
      addressGroups: new Map(),
      vmTags: new Map([['many', addresses.map((a) => `${a}/128`)]]),
    });
    expect(compiled.length).toBeGreaterThan(1);
    for (const r of compiled)
      expect((r.sources ?? []).join(',').length).toBeLessThanOrEqual(MAX_ADDRESS_LIST_LENGTH);
    expect(compiled.flatMap((r) => r.sources ?? []).sort()).toEqual(addresses.map((a) => `${a}/128`).sort());
  });

  it('refuses to compile a rule naming an address group it was not given', () => {
    expect(() =>
      compileFirewallRules([rule({ source: endpoint({ addressGroupIds: ['gone'] }) })], NONE),
    ).toThrow('address group gone was not resolved');
  });
});

// A small address universe, so that random rules and packets overlap often.
const V4_BASE = parseIpAddress('10.0.0.0', 'ip').value;
const V6_BASE = parseIpAddress('2001:db8::', 'ip').value;
const UNIVERSE_BITS = 4;
const BITS = { ipv4: 32, ipv6: 128 } as const;

function addressText(family: IpFamily, offset: number): string {
  return family === 'ipv4' ? `10.0.0.${offset}` : `2001:db8::${offset.toString(16)}`;
}

const familyArb = fc.constantFrom<IpFamily>('ipv4', 'ipv6');

/** An address, or a prefix of the universe (host bits cleared). */
const cidrArb = fc
  .tuple(familyArb, fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0, max: UNIVERSE_BITS }), fc.boolean())
  .map(([family, offset, hostBits, bare]) => {
    if (bare && hostBits === 0) return addressText(family, offset);
    const network = offset & ~((1 << hostBits) - 1);
    return `${addressText(family, network)}/${BITS[family] - hostBits}`;
  });

const GROUPS = ['g1', 'g2', 'g3'];
const TAGS = ['web', 'db', 'nobody'];

const resolutionArb: fc.Arbitrary<FirewallResolution> = fc
  .record({
    groups: fc.tuple(...GROUPS.map(() => fc.array(cidrArb, { maxLength: 4 }))),
    tags: fc.tuple(fc.array(cidrArb, { maxLength: 4 }), fc.array(cidrArb, { maxLength: 4 })),
  })
  .map(({ groups, tags }) => ({
    // Tag resolutions come from VM addresses, which are canonical prefixes.
    addressGroups: new Map(GROUPS.map((g, i) => [g, (groups[i] ?? []).map(asPrefix)])),
    vmTags: new Map([
      ['web', tags[0].map(asPrefix)],
      ['db', tags[1].map(asPrefix)],
    ]),
  }));

function asPrefix(cidr: string): string {
  return cidr.includes('/') ? cidr : `${cidr}/${cidr.includes(':') ? 128 : 32}`;
}

const endpointArb: fc.Arbitrary<FirewallEndpoint | undefined> = fc.option(
  fc.record({
    ips: fc.array(cidrArb, { maxLength: 3 }),
    addressGroupIds: fc.subarray(GROUPS),
    vmTags: fc.subarray(TAGS),
  }),
  { nil: undefined },
);

const PROTOCOLS: FirewallProtocol[] = [
  'FIREWALL_PROTOCOL_ANY',
  'FIREWALL_PROTOCOL_TCP',
  'FIREWALL_PROTOCOL_ICMP',
  'FIREWALL_PROTOCOL_IPV6_ICMP',
];

const specArb: fc.Arbitrary<FirewallRuleSpec> = fc.record({
  direction: fc.constantFrom('FIREWALL_DIRECTION_INGRESS', 'FIREWALL_DIRECTION_EGRESS'),
  action: fc.constantFrom('FIREWALL_ACTION_ACCEPT', 'FIREWALL_ACTION_DROP'),
  protocol: fc.constantFrom(...PROTOCOLS),
  source: endpointArb,
  destination: endpointArb,
});

/** Rules with their positions numbered per direction, as the API keeps them. */
const rulesArb: fc.Arbitrary<PositionedFirewallRule[]> = fc.array(specArb, { maxLength: 8 }).map((specs) => {
  const next = { FIREWALL_DIRECTION_INGRESS: 0, FIREWALL_DIRECTION_EGRESS: 0 };
  return specs.map((spec, i) => ({ id: `r${i}`, position: next[spec.direction]++, rule: spec }));
});

interface Packet {
  readonly direction: 'in' | 'out';
  readonly protocol: string;
  readonly source: IpAddress;
  readonly destination: IpAddress;
}

const packetArb: fc.Arbitrary<Packet> = fc
  .tuple(
    fc.constantFrom<'in' | 'out'>('in', 'out'),
    familyArb,
    fc.integer({ min: 0, max: 15 }),
    fc.integer({ min: 0, max: 15 }),
    fc.constantFrom('tcp', 'udp', 'icmp'),
  )
  .map(([direction, family, from, to, transport]) => {
    const base = family === 'ipv4' ? V4_BASE : V6_BASE;
    const protocol = transport === 'icmp' && family === 'ipv6' ? 'ipv6-icmp' : transport;
    return {
      direction,
      protocol,
      source: { family, value: base + BigInt(from) },
      destination: { family, value: base + BigInt(to) },
    };
  });

function inCidrs(cidrs: readonly string[], address: IpAddress): boolean {
  return cidrs.some((c) => prefixContains(parseIpPrefix(asPrefix(c), 'c'), address));
}

/** The reference meaning of an input endpoint: membership in the union of everything it names. */
function endpointMatches(
  e: FirewallEndpoint | undefined,
  r: FirewallResolution,
  address: IpAddress,
): boolean {
  if (e === undefined) return true;
  const named = [
    ...e.ips,
    ...e.addressGroupIds.flatMap((g) => r.addressGroups.get(g) ?? []),
    ...e.vmTags.flatMap((t) => r.vmTags.get(t) ?? []),
  ];
  return inCidrs(named, address);
}

function inputVerdict(rules: PositionedFirewallRule[], r: FirewallResolution, p: Packet): string | undefined {
  const direction = p.direction === 'in' ? 'FIREWALL_DIRECTION_INGRESS' : 'FIREWALL_DIRECTION_EGRESS';
  const hit = rules
    .filter((x) => x.rule.direction === direction)
    .sort((a, b) => a.position - b.position)
    .find((x) => {
      const protocol = proxmoxProtocolOf(x.rule.protocol);
      return (
        (protocol === undefined || protocol === p.protocol) &&
        endpointMatches(x.rule.source, r, p.source) &&
        endpointMatches(x.rule.destination, r, p.destination)
      );
    });
  return hit?.rule.action === 'FIREWALL_ACTION_ACCEPT' ? 'ACCEPT' : hit && 'DROP';
}

/** How Proxmox reads the compiled rules: the first in order whose every given field matches. */
function compiledVerdict(rules: CompiledFirewallRule[], p: Packet): string | undefined {
  return rules.find(
    (x) =>
      x.direction === p.direction &&
      (x.protocol === undefined || x.protocol === p.protocol) &&
      (x.sources === undefined || inCidrs(x.sources, p.source)) &&
      (x.destinations === undefined || inCidrs(x.destinations, p.destination)),
  )?.action;
}

function familyOf(cidrs: readonly string[] | undefined): Set<string> {
  return new Set((cidrs ?? []).map((c) => (c.includes(':') ? 'ipv6' : 'ipv4')));
}

describe('compiled rulesets (properties)', () => {
  it('decide every packet as the rules they were compiled from do', () => {
    fc.assert(
      fc.property(
        rulesArb,
        resolutionArb,
        fc.array(packetArb, { minLength: 1, maxLength: 20 }),
        (rules, r, packets) => {
          const compiled = compileFirewallRules(rules, r);
          for (const p of packets) expect(compiledVerdict(compiled, p)).toBe(inputVerdict(rules, r, p));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('are rules Proxmox takes: one family per rule, lists short enough and never empty', () => {
    fc.assert(
      fc.property(rulesArb, resolutionArb, (rules, r) => {
        for (const compiled of compileFirewallRules(rules, r)) {
          const families = new Set([...familyOf(compiled.sources), ...familyOf(compiled.destinations)]);
          expect(families.size).toBeLessThanOrEqual(1);
          for (const list of [compiled.sources, compiled.destinations]) {
            if (list === undefined) continue;
            expect(list.length).toBeGreaterThan(0);
            expect(list.join(',').length).toBeLessThanOrEqual(MAX_ADDRESS_LIST_LENGTH);
          }
          if (compiled.protocol !== undefined) expect(compiled.protocol).toMatch(/^[a-z0-9][a-z0-9-]*$/);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never turn a rule with a source or destination into one matching any address there', () => {
    fc.assert(
      fc.property(rulesArb, resolutionArb, (rules, r) => {
        const byId = new Map(rules.map((x) => [x.id, x.rule]));
        for (const compiled of compileFirewallRules(rules, r)) {
          const input = byId.get(compiled.comment ?? '');
          if (input?.source !== undefined) expect(compiled.sources).toBeDefined();
          if (input?.destination !== undefined) expect(compiled.destinations).toBeDefined();
        }
      }),
      { numRuns: 300 },
    );
  });
});
