import { describe, expect, it } from 'vitest';

import { compileRule, desiredFirewallRules } from './desired-firewall-rules.js';

describe('desiredFirewallRules', () => {
  it('puts the SMTP block first, then the ruleset in its order', () => {
    const rules = desiredFirewallRules({
      smtpBlocked: true,
      ruleSet: {
        name: 'web',
        rules: [
          { direction: 'in', action: 'ACCEPT', protocol: 'tcp', destinationPorts: '443' },
          { direction: 'out', action: 'REJECT' },
        ],
      },
    });
    expect(rules).toEqual([
      {
        type: 'out',
        action: 'DROP',
        enable: true,
        proto: 'tcp',
        dport: '25,465,587',
        comment: 'nr:smtp-block',
      },
      { type: 'in', action: 'ACCEPT', enable: true, proto: 'tcp', dport: '443', comment: 'nr:web#1' },
      { type: 'out', action: 'REJECT', enable: true, comment: 'nr:web#2' },
    ]);
  });

  it('leaves the SMTP rule out when SMTP is allowed', () => {
    expect(desiredFirewallRules({ smtpBlocked: false })).toEqual([]);
    expect(
      desiredFirewallRules({
        smtpBlocked: false,
        ruleSet: { name: 'a', rules: [{ direction: 'in', action: 'DROP' }] },
      }),
    ).toEqual([{ type: 'in', action: 'DROP', enable: true, comment: 'nr:a#1' }]);
  });
});

describe('compileRule', () => {
  it('joins CIDR lists with commas and maps both port lists with the protocol', () => {
    expect(
      compileRule(
        {
          direction: 'in',
          action: 'ACCEPT',
          protocol: 'udp',
          sourcePorts: '1024:65535',
          destinationPorts: '53,5353',
          sources: ['10.0.0.0/8', '192.168.0.0/16'],
          destinations: ['203.0.113.10/32'],
          comment: '  dns from the LAN ',
        },
        'lan',
        4,
      ),
    ).toEqual({
      type: 'in',
      action: 'ACCEPT',
      enable: true,
      proto: 'udp',
      sport: '1024:65535',
      dport: '53,5353',
      source: '10.0.0.0/8,192.168.0.0/16',
      dest: '203.0.113.10/32',
      comment: 'nr:lan#5 dns from the LAN',
    });
  });

  it('sets no address for an empty list and keeps the label for an empty comment', () => {
    expect(
      compileRule({ direction: 'out', action: 'DROP', sources: [], destinations: [], comment: ' ' }, 'x', 0),
    ).toEqual({ type: 'out', action: 'DROP', enable: true, comment: 'nr:x#1' });
  });
});
