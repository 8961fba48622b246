import { describe, expect, it } from 'vitest';

import { endpointLabel, NEW_RULE, ruleRequest, ruleSummary, validateRule } from './firewall-rule-form.js';

describe('the firewall rule form', () => {
  it('sends only what was filled in: empty addresses and ports mean any', () => {
    expect(ruleRequest({ ...NEW_RULE, destinationPorts: ' 22 ' })).toEqual({
      rule: {
        direction: 'FIREWALL_DIRECTION_INGRESS',
        action: 'FIREWALL_ACTION_ACCEPT',
        protocol: 'FIREWALL_PROTOCOL_TCP',
        destinationPorts: '22',
      },
    });
    expect(ruleRequest({ ...NEW_RULE, sourceIps: '192.0.2.0/24, 2001:db8::/48' }).rule.source).toEqual({
      ips: ['192.0.2.0/24', '2001:db8::/48'],
    });
  });

  it('refuses ports for protocols without them, and bad addresses', () => {
    expect(
      validateRule({ ...NEW_RULE, protocol: 'FIREWALL_PROTOCOL_ICMP', destinationPorts: '22' }),
    ).toHaveProperty('destinationPorts');
    expect(validateRule({ ...NEW_RULE, sourceIps: '192.0.2.300' })).toHaveProperty('sourceIps');
    expect(validateRule({ ...NEW_RULE, destinationPorts: '443' })).toEqual({});
  });

  it('describes a rule in one line', () => {
    expect(
      ruleSummary({
        direction: 'FIREWALL_DIRECTION_INGRESS',
        action: 'FIREWALL_ACTION_ACCEPT',
        protocol: 'FIREWALL_PROTOCOL_TCP',
        destinationPorts: '22',
      }),
    ).toBe('Accept inbound TCP port 22 from any address');
    expect(endpointLabel({ ips: ['192.0.2.1'], vmTags: ['web'], addressGroupIds: ['g'] })).toBe(
      '192.0.2.1, VMs tagged web, 1 address group',
    );
  });
});
