import {
  FIREWALL_ACTIONS,
  FIREWALL_DIRECTIONS,
  FIREWALL_NAME_MAX_LENGTH,
  FIREWALL_PORTS_PATTERN,
  FIREWALL_PROTOCOLS,
  firewallNameProblem,
  firewallPrefixProblem,
  firewallRuleViolations,
  VM_TAG_PATTERN,
  type FirewallEndpoint,
  type FirewallRuleSpec,
} from '@noderings/domain';
import { z } from 'zod';

import { ruled } from '../../http/ruled-schema.js';
import type { AddressGroupRecord } from './address-group.repository.js';
import type { RuleRecord } from './rule.repository.js';
import type { RuleSetRecord } from './ruleset.repository.js';

const MAX_ENDPOINT_IPS = 64;
const MAX_ENDPOINT_GROUPS = 20;
const MAX_ENDPOINT_TAGS = 20;
const MAX_GROUP_PREFIXES = 256;
/** The longest CIDR spelling is an IPv6 address in full with a /128; a little room for typos. */
const MAX_CIDR_LENGTH = 64;

export const firewallName = ruled(z.string().max(FIREWALL_NAME_MAX_LENGTH), firewallNameProblem);

const endpoint = z
  .strictObject({
    ips: z
      .array(z.string().max(MAX_CIDR_LENGTH))
      .max(MAX_ENDPOINT_IPS)
      .default([])
      .describe('Addresses (192.0.2.10) and CIDR prefixes (192.0.2.0/24, 2001:db8::/48).'),
    addressGroupIds: z.array(z.uuid()).max(MAX_ENDPOINT_GROUPS).default([]).describe('Your address groups.'),
    vmTags: z
      .array(
        z.string().regex(VM_TAG_PATTERN, 'must be a VM tag: lower-case letters, digits, ".", "_" or "-"'),
      )
      .max(MAX_ENDPOINT_TAGS)
      .default([])
      .describe('The addresses of your VMs carrying any of these tags, as they are at any moment.'),
  })
  .describe('The union of its parts; at least one part must name something. Leave it out for any address.');

const ports = z
  .string()
  .regex(FIREWALL_PORTS_PATTERN, 'must be a port like 443 or a range like 8000-9000')
  .describe('One port ("443") or a range ("8000-9000"); needs protocol TCP, UDP, SCTP, DCCP or UDPLITE.');

const ruleFields = {
  direction: z.enum(FIREWALL_DIRECTIONS),
  action: z.enum(FIREWALL_ACTIONS),
  protocol: z
    .enum(FIREWALL_PROTOCOLS)
    .default('FIREWALL_PROTOCOL_ANY')
    .describe('ANY leaves the protocol unset. IPSEC, VXLAN and GENEVE are legacy values and refused.'),
  source: endpoint.optional(),
  destination: endpoint.optional(),
  sourcePorts: ports.optional(),
  destinationPorts: ports.optional(),
};

/** Field paths like `source.ips.1` as zod paths. */
function pathOf(field: string): (string | number)[] {
  return field.split('.').map((part) => (/^[0-9]+$/.test(part) ? Number(part) : part));
}

export const ruleInput = z.strictObject(ruleFields).superRefine(
  (rule, ctx) => {
    for (const violation of firewallRuleViolations(rule))
      ctx.addIssue({ code: 'custom', path: pathOf(violation.field), message: violation.description });
  },
  { when: (payload) => payload.issues.length === 0 },
);

const endpointView = z.object({
  ips: z.array(z.string()),
  addressGroupIds: z.array(z.string()),
  vmTags: z.array(z.string()),
});

const ruleSpecView = z
  .object({
    direction: z.enum(FIREWALL_DIRECTIONS),
    action: z.enum(FIREWALL_ACTIONS),
    protocol: z.enum(FIREWALL_PROTOCOLS),
    source: endpointView.optional(),
    destination: endpointView.optional(),
    sourcePorts: z.string().optional(),
    destinationPorts: z.string().optional(),
  })
  .meta({ id: 'FirewallRuleSpec' });

export const ruleView = z
  .object({
    id: z.string(),
    rulesetId: z.string(),
    rule: ruleSpecView,
    position: z.number().int().describe('From 0 within the rule’s direction; lower is matched first.'),
  })
  .meta({ id: 'FirewallRule' });

export const ruleSetView = z
  .object({
    id: z.string(),
    name: z.string(),
    ruleCount: z.number().int(),
    attachedVmCount: z.number().int(),
    attachedVmHostnames: z.array(z.string()),
    attachedVmIds: z.array(z.string()).describe('The attached VMs, in the order of attachedVmHostnames.'),
  })
  .meta({ id: 'FirewallRuleSet' });

export const addressGroupView = z
  .object({
    id: z.string(),
    name: z.string(),
    prefixes: z.array(z.string()).describe('CIDR prefixes in their canonical spelling.'),
  })
  .meta({ id: 'FirewallAddressGroup' });

export const addressGroupFields = {
  name: firewallName,
  prefixes: z
    .array(ruled(z.string().max(MAX_CIDR_LENGTH), firewallPrefixProblem))
    .max(MAX_GROUP_PREFIXES)
    .describe('CIDR prefixes, IPv4 and IPv6 mixed; 0.0.0.0/0 and ::/0 are every address.'),
};

function toEndpointView(e: FirewallEndpoint | undefined): z.infer<typeof endpointView> | undefined {
  return e && { ips: [...e.ips], addressGroupIds: [...e.addressGroupIds], vmTags: [...e.vmTags] };
}

function toRuleSpecView(rule: FirewallRuleSpec): z.infer<typeof ruleSpecView> {
  const source = toEndpointView(rule.source);
  const destination = toEndpointView(rule.destination);
  return {
    direction: rule.direction,
    action: rule.action,
    protocol: rule.protocol,
    ...(source && { source }),
    ...(destination && { destination }),
    ...(rule.sourcePorts !== undefined && { sourcePorts: rule.sourcePorts }),
    ...(rule.destinationPorts !== undefined && { destinationPorts: rule.destinationPorts }),
  };
}

export function toRuleView(r: RuleRecord): z.infer<typeof ruleView> {
  return { id: r.id, rulesetId: r.rulesetId, rule: toRuleSpecView(r.rule), position: r.position };
}

export function toRuleSetView(r: RuleSetRecord): z.infer<typeof ruleSetView> {
  return {
    id: r.id,
    name: r.name,
    ruleCount: r.ruleCount,
    attachedVmCount: r.attachedVmHostnames.length,
    attachedVmHostnames: [...r.attachedVmHostnames],
    attachedVmIds: [...r.attachedVmIds],
  };
}

export function toAddressGroupView(g: AddressGroupRecord): z.infer<typeof addressGroupView> {
  return { id: g.id, name: g.name, prefixes: [...g.prefixes] };
}
