import { protocolFamily, proxmoxProtocolOf } from './firewall-protocol.js';
import type { FirewallEndpoint, FirewallRuleSpec } from './firewall-rule.js';
import {
  addressBits,
  formatIpPrefix,
  parseIpAddress,
  parseIpPrefix,
  prefixContains,
  type IpFamily,
  type IpPrefix,
} from './ip-prefix.js';

/**
 * Compiles a customer's ruleset into the rules of a FirewallRuleSet custom resource (DESIGN §3.2), which
 * the operator writes to the Proxmox VM firewall as they are. Decisions: docs/adr/0012-firewall-compilation.md.
 * The output keeps the meaning of the input exactly: a packet meets the same first matching action.
 */

/** A rule of the FirewallRuleSet custom resource (`FirewallRule` of packages/kube, field for field). */
export interface CompiledFirewallRule {
  direction: 'in' | 'out';
  action: 'ACCEPT' | 'DROP' | 'REJECT';
  protocol?: string;
  sourcePorts?: string;
  destinationPorts?: string;
  sources?: string[];
  destinations?: string[];
  comment?: string;
}

export interface PositionedFirewallRule {
  readonly id: string;
  /** Within its direction; lower is matched first. */
  readonly position: number;
  readonly rule: FirewallRuleSpec;
}

/** What the names in rules stand for when the ruleset is compiled. */
export interface FirewallResolution {
  /** Every address group a rule names, with its CIDR prefixes; a missing one is a bug, never "nothing". */
  readonly addressGroups: ReadonlyMap<string, readonly string[]>;
  /** The addresses (CIDRs) of the organisation's live VMs by tag; a tag no VM carries may be left out. */
  readonly vmTags: ReadonlyMap<string, readonly string[]>;
}

/** Proxmox refuses a rule whose `source` or `dest` is longer than this once joined with commas. */
export const MAX_ADDRESS_LIST_LENGTH = 512;

const FAMILIES: readonly IpFamily[] = ['ipv4', 'ipv6'];
const DIRECTION_ORDER = { FIREWALL_DIRECTION_INGRESS: 0, FIREWALL_DIRECTION_EGRESS: 1 } as const;

/** A canonical address (a host prefix) or CIDR prefix. */
function prefixOf(text: string): IpPrefix {
  if (text.includes('/')) return parseIpPrefix(text, 'ip');
  const address = parseIpAddress(text, 'ip');
  return { family: address.family, network: address.value, length: addressBits(address.family) };
}

function compareNetworks(a: IpPrefix, b: IpPrefix): number {
  if (a.family !== b.family) return a.family === 'ipv4' ? -1 : 1;
  if (a.network !== b.network) return a.network < b.network ? -1 : 1;
  return a.length - b.length;
}

/**
 * The same addresses in the fewest prefixes of the given ones, IPv4 first, in address order. CIDR blocks
 * either nest or are apart, so a prefix inside any kept one is inside the last kept one.
 */
function covering(prefixes: readonly IpPrefix[]): IpPrefix[] {
  const kept: IpPrefix[] = [];
  for (const prefix of [...prefixes].sort(compareNetworks)) {
    const last = kept.at(-1);
    if (last === undefined || !prefixContains(last, prefix)) kept.push(prefix);
  }
  return kept;
}

/** Undefined: any address. An empty list: no address at all, so the rule can never match. */
function resolveEndpoint(
  endpoint: FirewallEndpoint | undefined,
  resolution: FirewallResolution,
): IpPrefix[] | undefined {
  if (endpoint === undefined) return undefined;
  const groups = endpoint.addressGroupIds.flatMap((id) => {
    const prefixes = resolution.addressGroups.get(id);
    if (prefixes === undefined) throw new Error(`address group ${id} was not resolved`);
    return prefixes;
  });
  const tagged = endpoint.vmTags.flatMap((tag) => resolution.vmTags.get(tag) ?? []);
  return covering([...endpoint.ips, ...groups, ...tagged].map(prefixOf));
}

/** Consecutive runs of the list, each short enough for Proxmox once joined. */
function chunks(cidrs: readonly string[]): string[][] {
  const result: string[][] = [];
  let current: string[] = [];
  let length = 0;
  for (const cidr of cidrs) {
    const added = current.length === 0 ? cidr.length : length + 1 + cidr.length;
    if (added > MAX_ADDRESS_LIST_LENGTH && current.length > 0) {
      result.push(current);
      current = [cidr];
      length = cidr.length;
    } else {
      current.push(cidr);
      length = added;
    }
  }
  if (current.length > 0) result.push(current);
  return result;
}

/** Each family's part of a resolved endpoint, cut to Proxmox's length; [undefined] for any address. */
function familyLists(resolved: IpPrefix[] | undefined, family: IpFamily): (string[] | undefined)[] {
  if (resolved === undefined) return [undefined];
  return chunks(resolved.filter((p) => p.family === family).map(formatIpPrefix));
}

function compileRule(
  id: string,
  rule: FirewallRuleSpec,
  resolution: FirewallResolution,
): CompiledFirewallRule[] {
  const sources = resolveEndpoint(rule.source, resolution);
  const destinations = resolveEndpoint(rule.destination, resolution);
  // An endpoint that resolves to no address matches no packet: the rule is left out, whatever its action.
  if (sources?.length === 0 || destinations?.length === 0) return [];
  const protocol = proxmoxProtocolOf(rule.protocol);
  const base: CompiledFirewallRule = {
    direction: rule.direction === 'FIREWALL_DIRECTION_INGRESS' ? 'in' : 'out',
    action: rule.action === 'FIREWALL_ACTION_ACCEPT' ? 'ACCEPT' : 'DROP',
    ...(protocol !== undefined && { protocol }),
    ...(rule.sourcePorts !== undefined && { sourcePorts: rule.sourcePorts.replace('-', ':') }),
    ...(rule.destinationPorts !== undefined && { destinationPorts: rule.destinationPorts.replace('-', ':') }),
    comment: id,
  };
  if (sources === undefined && destinations === undefined) return [base];
  // Proxmox takes one address family per rule (in source, dest and between them): one rule per family,
  // and per slice of a list too long for one rule. All carry the same action, so their order is free.
  const onlyFamily = protocolFamily(rule.protocol);
  const families = onlyFamily === undefined ? FAMILIES : [onlyFamily];
  return families.flatMap((family) =>
    familyLists(sources, family).flatMap((from) =>
      familyLists(destinations, family).map((to) => ({
        ...base,
        ...(from !== undefined && { sources: from }),
        ...(to !== undefined && { destinations: to }),
      })),
    ),
  );
}

/** The ruleset's rules for the custom resource: ingress, then egress, each in position order. */
export function compileFirewallRules(
  rules: readonly PositionedFirewallRule[],
  resolution: FirewallResolution,
): CompiledFirewallRule[] {
  const ordered = [...rules].sort(
    (a, b) =>
      DIRECTION_ORDER[a.rule.direction] - DIRECTION_ORDER[b.rule.direction] || a.position - b.position,
  );
  return ordered.flatMap((r) => compileRule(r.id, r.rule, resolution));
}
