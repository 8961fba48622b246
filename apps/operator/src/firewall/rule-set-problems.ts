import { isIPv4, isIPv6 } from 'node:net';

import type { FirewallRule } from '@noderings/kube';

/** Protocols Proxmox accepts ports with, by name and by number. */
const PROTOCOLS_WITH_PORTS = new Set([
  'tcp',
  '6',
  'udp',
  '17',
  'udplite',
  '136',
  'dccp',
  '33',
  'sctp',
  '132',
]);
const MAX_PORT = 65_535;
/** Proxmox's limit on a rule's `source` and `dest` strings. */
const MAX_ADDRESS_LIST_LENGTH = 512;
// Proxmox keeps a rule on one line of `<vmid>.fw`; a control character would break the file.
const CONTROL_CHARACTER = /\p{Cc}/u;

type Family = 4 | 6;

/**
 * What Proxmox would refuse in a ruleset, beyond what the CRD schema already checks, found before any
 * rule is written so that a VM's firewall is never left half rewritten. Empty when the ruleset is valid.
 */
export function ruleSetProblems(rules: readonly FirewallRule[]): string[] {
  return rules.flatMap((rule, i) => ruleProblems(rule).map((problem) => `rule ${i + 1}: ${problem}`));
}

function ruleProblems(rule: FirewallRule): string[] {
  const problems: string[] = [];
  for (const [field, ports] of [
    ['sourcePorts', rule.sourcePorts],
    ['destinationPorts', rule.destinationPorts],
  ] as const) {
    if (ports === undefined) continue;
    if (rule.protocol === undefined) problems.push(`${field} needs a protocol`);
    else if (!PROTOCOLS_WITH_PORTS.has(rule.protocol))
      problems.push(`protocol '${rule.protocol}' has no ports (${field})`);
    problems.push(...portProblems(field, ports));
  }
  const sources = listFamily('sources', rule.sources, problems);
  const destinations = listFamily('destinations', rule.destinations, problems);
  if (sources !== undefined && destinations !== undefined && sources !== destinations) {
    problems.push('sources and destinations mix IPv4 and IPv6');
  }
  if (rule.comment !== undefined && CONTROL_CHARACTER.test(rule.comment)) {
    problems.push('comment contains a control character');
  }
  return problems;
}

function portProblems(field: string, ports: string): string[] {
  return ports.split(',').flatMap((part) => {
    const [low = NaN, high = low] = part.split(':').map(Number);
    if (low > MAX_PORT || high > MAX_PORT) return [`${field} '${part}' is above ${MAX_PORT}`];
    if (low > high) return [`${field} range '${part}' runs backwards`];
    return [];
  });
}

/** The address family shared by every CIDR of the list; records a problem for each bad one. */
function listFamily(
  field: string,
  cidrs: readonly string[] | undefined,
  problems: string[],
): Family | undefined {
  if (cidrs === undefined || cidrs.length === 0) return undefined;
  if (cidrs.join(',').length > MAX_ADDRESS_LIST_LENGTH) {
    problems.push(`${field} is longer than ${MAX_ADDRESS_LIST_LENGTH} characters once joined`);
  }
  const families = new Set<Family>();
  for (const cidr of cidrs) {
    const family = cidrFamily(cidr);
    if (family === undefined) problems.push(`${field} entry '${cidr}' is not a CIDR`);
    else families.add(family);
  }
  if (families.size > 1) problems.push(`${field} mixes IPv4 and IPv6`);
  return families.size === 1 ? [...families][0] : undefined;
}

function cidrFamily(cidr: string): Family | undefined {
  const [address = '', prefix, ...rest] = cidr.split('/');
  if (prefix === undefined || rest.length > 0 || !/^\d{1,3}$/.test(prefix)) return undefined;
  const length = Number(prefix);
  if (isIPv4(address) && length <= 32) return 4;
  if (isIPv6(address) && length <= 128) return 6;
  return undefined;
}
