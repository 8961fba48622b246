import { describe, expect, it } from 'vitest';

import { ruleSetProblems } from './rule-set-problems.js';

describe('ruleSetProblems', () => {
  it('accepts valid rules', () => {
    expect(
      ruleSetProblems([
        {
          direction: 'in',
          action: 'ACCEPT',
          protocol: 'tcp',
          destinationPorts: '22,80:90',
          sourcePorts: '1:65535',
          sources: ['10.0.0.0/8', '192.0.2.1/32'],
          destinations: ['203.0.113.0/24'],
          comment: 'fine',
        },
        { direction: 'out', action: 'DROP', protocol: 'icmp', destinations: ['2001:db8::/32', '::/0'] },
        { direction: 'in', action: 'REJECT', protocol: '17', destinationPorts: '53' },
      ]),
    ).toEqual([]);
  });

  it('names each problem with its rule number', () => {
    expect(
      ruleSetProblems([
        { direction: 'in', action: 'ACCEPT' },
        { direction: 'in', action: 'ACCEPT', destinationPorts: '22' },
        { direction: 'in', action: 'ACCEPT', protocol: 'icmp', sourcePorts: '7' },
        { direction: 'in', action: 'ACCEPT', protocol: 'tcp', destinationPorts: '80,99999,90:80' },
        { direction: 'in', action: 'ACCEPT', sources: ['10.0.0.0/8', '2001:db8::/32'] },
        { direction: 'in', action: 'ACCEPT', sources: ['10.0.0.0/8'], destinations: ['2001:db8::/32'] },
        { direction: 'in', action: 'ACCEPT', sources: ['10.0.0.0/33', ':::/64', '10.0.0.1'] },
        { direction: 'in', action: 'ACCEPT', comment: 'two\nlines' },
      ]),
    ).toEqual([
      'rule 2: destinationPorts needs a protocol',
      "rule 3: protocol 'icmp' has no ports (sourcePorts)",
      "rule 4: destinationPorts '99999' is above 65535",
      "rule 4: destinationPorts range '90:80' runs backwards",
      'rule 5: sources mixes IPv4 and IPv6',
      'rule 6: sources and destinations mix IPv4 and IPv6',
      "rule 7: sources entry '10.0.0.0/33' is not a CIDR",
      "rule 7: sources entry ':::/64' is not a CIDR",
      "rule 7: sources entry '10.0.0.1' is not a CIDR",
      'rule 8: comment contains a control character',
    ]);
  });

  it('refuses an address list longer than Proxmox takes', () => {
    const sources = Array.from({ length: 40 }, (_, i) => `198.51.100.${i}/32`);
    expect(ruleSetProblems([{ direction: 'in', action: 'ACCEPT', sources }])).toEqual([
      'rule 1: sources is longer than 512 characters once joined',
    ]);
  });
});
