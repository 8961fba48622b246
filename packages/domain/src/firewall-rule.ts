import { InvalidArgumentError, type FieldViolation } from './domain-error.js';
import { firewallProtocolProblem, protocolHasPorts, type FirewallProtocol } from './firewall-protocol.js';
import { formatIpAddress, formatIpPrefix, parseIpAddress, parseIpPrefix } from './ip-prefix.js';
import type { Problem } from './node-settings.js';

/** A customer's firewall rule as the API takes it (FirewallService "Rule input"). */

export const FIREWALL_DIRECTIONS = ['FIREWALL_DIRECTION_INGRESS', 'FIREWALL_DIRECTION_EGRESS'] as const;
export type FirewallDirection = (typeof FIREWALL_DIRECTIONS)[number];

export const FIREWALL_ACTIONS = ['FIREWALL_ACTION_ACCEPT', 'FIREWALL_ACTION_DROP'] as const;
export type FirewallAction = (typeof FIREWALL_ACTIONS)[number];

/**
 * Where a packet comes from or goes to: the union of addresses and prefixes, address groups, and the
 * addresses of the organisation's VMs carrying a tag. A rule without an endpoint matches any address.
 */
export interface FirewallEndpoint {
  readonly ips: readonly string[];
  readonly addressGroupIds: readonly string[];
  readonly vmTags: readonly string[];
}

export interface FirewallRuleSpec {
  readonly direction: FirewallDirection;
  readonly action: FirewallAction;
  readonly protocol: FirewallProtocol;
  readonly source?: FirewallEndpoint | undefined;
  readonly destination?: FirewallEndpoint | undefined;
  /** One port (`"80"`) or a range (`"8000-9000"`). */
  readonly sourcePorts?: string | undefined;
  readonly destinationPorts?: string | undefined;
}

export const FIREWALL_PORTS_PATTERN = /^[0-9]{1,5}(-[0-9]{1,5})?$/;
const MIN_PORT = 1;
const MAX_PORT = 65_535;

/** The VM tag syntax (the VM module's), so that a rule can only name a tag a VM can carry. */
export const VM_TAG_PATTERN = /^[a-z0-9]([a-z0-9._-]{0,61}[a-z0-9])?$/;

/** Names of rulesets and address groups. */
export const FIREWALL_NAME_MAX_LENGTH = 100;
const CONTROL_CHARACTER = /\p{Cc}/u;

/** Names of rulesets and address groups: shown to people, unique per organisation. */
export function firewallNameProblem(name: string): Problem {
  if (name.trim() !== name || name === '') return 'must not be empty or start or end with spaces';
  if (name.length > FIREWALL_NAME_MAX_LENGTH) return `must be at most ${FIREWALL_NAME_MAX_LENGTH} characters`;
  if (CONTROL_CHARACTER.test(name)) return 'must not contain control characters';
  return undefined;
}

function portRange(ports: string): [number, number] {
  const [low = '', high = low] = ports.split('-');
  return [Number(low), Number(high)];
}

export function firewallPortsProblem(ports: string): Problem {
  if (!FIREWALL_PORTS_PATTERN.test(ports)) return 'must be a port like 443 or a range like 8000-9000';
  const [low, high] = portRange(ports);
  if (low < MIN_PORT || high > MAX_PORT) return `ports must be from ${MIN_PORT} to ${MAX_PORT}`;
  if (low > high) return 'the range must not run backwards';
  return undefined;
}

/** An address or a CIDR prefix, in its canonical spelling; undefined when it is neither. */
function canonicalAddressOrPrefix(text: string): string | undefined {
  try {
    return text.includes('/')
      ? formatIpPrefix(parseIpPrefix(text, 'ip'))
      : formatIpAddress(parseIpAddress(text, 'ip'));
  } catch {
    return undefined;
  }
}

/** A CIDR prefix (address groups hold prefixes only; `0.0.0.0/0` and `::/0` are every address). */
export function firewallPrefixProblem(text: string): Problem {
  try {
    parseIpPrefix(text, 'prefix');
    return undefined;
  } catch (e: unknown) {
    if (!(e instanceof InvalidArgumentError)) throw e;
    return e.fieldViolations[0]?.description ?? 'must be a CIDR prefix';
  }
}

function endpointViolations(endpoint: FirewallEndpoint, field: string): FieldViolation[] {
  const violations: FieldViolation[] = [];
  if (endpoint.ips.length + endpoint.addressGroupIds.length + endpoint.vmTags.length === 0)
    violations.push({
      field,
      description: `give at least one of ips, addressGroupIds or vmTags; leave ${field} out to match any address`,
    });
  endpoint.ips.forEach((ip, i) => {
    if (canonicalAddressOrPrefix(ip) === undefined)
      violations.push({
        field: `${field}.ips.${i}`,
        description: 'must be an address like 192.0.2.10 or a CIDR prefix like 192.0.2.0/24 or 2001:db8::/48',
      });
  });
  return violations;
}

/**
 * What is wrong with a rule beyond each field's own syntax (which the API schema checks): the rules
 * Proxmox applies across fields, and endpoints that name nothing. Field paths are relative to the rule.
 */
export function firewallRuleViolations(rule: FirewallRuleSpec): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const protocolProblem = firewallProtocolProblem(rule.protocol);
  if (protocolProblem !== undefined) violations.push({ field: 'protocol', description: protocolProblem });
  for (const field of ['sourcePorts', 'destinationPorts'] as const) {
    const ports = rule[field];
    if (ports === undefined) continue;
    const problem = firewallPortsProblem(ports);
    if (problem !== undefined) violations.push({ field, description: problem });
    else if (!protocolHasPorts(rule.protocol))
      violations.push({ field, description: 'needs protocol TCP, UDP, SCTP, DCCP or UDPLITE' });
  }
  for (const field of ['source', 'destination'] as const) {
    const endpoint = rule[field];
    if (endpoint !== undefined) violations.push(...endpointViolations(endpoint, field));
  }
  return violations;
}

function canonicalPorts(ports: string | undefined): string | undefined {
  if (ports === undefined) return undefined;
  const [low, high] = portRange(ports);
  return low === high ? String(low) : `${low}-${high}`;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function canonicalEndpoint(endpoint: FirewallEndpoint | undefined): FirewallEndpoint | undefined {
  return (
    endpoint && {
      ips: unique(endpoint.ips.map((ip) => canonicalAddressOrPrefix(ip) ?? ip)),
      addressGroupIds: unique(endpoint.addressGroupIds),
      vmTags: unique(endpoint.vmTags),
    }
  );
}

/**
 * The rule in one spelling (canonical addresses, ports without leading zeros, no repeated entries), so
 * that an edit that changes nothing is seen to change nothing. Only for a rule without violations.
 */
export function normalizeFirewallRule(rule: FirewallRuleSpec): FirewallRuleSpec {
  const source = canonicalEndpoint(rule.source);
  const destination = canonicalEndpoint(rule.destination);
  const sourcePorts = canonicalPorts(rule.sourcePorts);
  const destinationPorts = canonicalPorts(rule.destinationPorts);
  return {
    direction: rule.direction,
    action: rule.action,
    protocol: rule.protocol,
    ...(source && { source }),
    ...(destination && { destination }),
    ...(sourcePorts !== undefined && { sourcePorts }),
    ...(destinationPorts !== undefined && { destinationPorts }),
  };
}

/** Every address group the rule refers to, and every VM tag. */
export function firewallRuleReferences(rule: FirewallRuleSpec): {
  addressGroupIds: string[];
  vmTags: string[];
} {
  const endpoints = [rule.source, rule.destination].filter((e) => e !== undefined);
  return {
    addressGroupIds: unique(endpoints.flatMap((e) => e.addressGroupIds)),
    vmTags: unique(endpoints.flatMap((e) => e.vmTags)),
  };
}
