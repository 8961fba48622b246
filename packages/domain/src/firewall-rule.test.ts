import { describe, expect, it } from 'vitest';

import {
  firewallNameProblem,
  firewallPortsProblem,
  firewallPrefixProblem,
  firewallRuleReferences,
  firewallRuleViolations,
  normalizeFirewallRule,
  type FirewallRuleSpec,
} from './firewall-rule.js';

const BASE: FirewallRuleSpec = {
  direction: 'FIREWALL_DIRECTION_INGRESS',
  action: 'FIREWALL_ACTION_ACCEPT',
  protocol: 'FIREWALL_PROTOCOL_TCP',
};

const none = { ips: [], addressGroupIds: [], vmTags: [] };

describe('firewall rule checks', () => {
  it.each([
    ['80', undefined],
    ['8000-9000', undefined],
    ['443-443', undefined],
    ['0', 'ports must be from 1 to 65535'],
    ['65536', 'ports must be from 1 to 65535'],
    ['9000-8000', 'the range must not run backwards'],
    ['80,443', 'must be a port like 443 or a range like 8000-9000'],
    ['80:90', 'must be a port like 443 or a range like 8000-9000'],
  ])('ports %s: %s', (ports, problem) => {
    expect(firewallPortsProblem(ports)).toBe(problem);
  });

  it('takes only CIDR prefixes in address groups', () => {
    expect(firewallPrefixProblem('0.0.0.0/0')).toBeUndefined();
    expect(firewallPrefixProblem('2001:db8::/32')).toBeUndefined();
    expect(firewallPrefixProblem('192.0.2.1/24')).toBe('has host bits set: the network is 192.0.2.0/24');
    expect(firewallPrefixProblem('192.0.2.1')).toMatch(/CIDR prefix/);
  });

  it.each([
    ['web', undefined],
    [' web', 'must not be empty or start or end with spaces'],
    ['', 'must not be empty or start or end with spaces'],
    ['a\tb', 'must not contain control characters'],
    ['x'.repeat(101), 'must be at most 100 characters'],
  ])('name %j: %s', (name, problem) => {
    expect(firewallNameProblem(name)).toBe(problem);
  });

  it('names each field at fault, relative to the rule', () => {
    expect(
      firewallRuleViolations({
        ...BASE,
        protocol: 'FIREWALL_PROTOCOL_ICMP',
        destinationPorts: '22',
        source: { ...none, ips: ['192.0.2.1', 'not-an-ip', '192.0.2.1/24'] },
        destination: none,
      }).map((v) => v.field),
    ).toEqual(['destinationPorts', 'source.ips.1', 'source.ips.2', 'destination']);
    expect(firewallRuleViolations({ ...BASE, protocol: 'FIREWALL_PROTOCOL_VXLAN' })).toEqual([
      { field: 'protocol', description: 'is a legacy value: VXLAN is UDP, destinationPorts 4789' },
    ]);
    expect(
      firewallRuleViolations({ ...BASE, sourcePorts: '1024-65535', source: { ...none, vmTags: ['web'] } }),
    ).toEqual([]);
  });

  it('spells a rule one way, so that an edit changing nothing is seen as such', () => {
    expect(
      normalizeFirewallRule({
        ...BASE,
        destinationPorts: '0080-0080',
        sourcePorts: '1024-2048',
        source: {
          ips: ['2001:DB8::1', '2001:db8:0::1', '10.0.0.0/8'],
          addressGroupIds: ['g', 'g'],
          vmTags: ['web', 'web', 'db'],
        },
      }),
    ).toEqual({
      ...BASE,
      destinationPorts: '80',
      sourcePorts: '1024-2048',
      source: { ips: ['2001:db8::1', '10.0.0.0/8'], addressGroupIds: ['g'], vmTags: ['web', 'db'] },
    });
  });

  it('lists what a rule refers to on both ends', () => {
    expect(
      firewallRuleReferences({
        ...BASE,
        source: { ips: [], addressGroupIds: ['a'], vmTags: ['web'] },
        destination: { ips: [], addressGroupIds: ['a', 'b'], vmTags: ['db'] },
      }),
    ).toEqual({ addressGroupIds: ['a', 'b'], vmTags: ['web', 'db'] });
  });
});
