import {
  ALLOCATION_STRATEGIES,
  formatIpAddress,
  formatIpPrefix,
  InvalidArgumentError,
  macAddressPrefixProblem,
  parseIpAddress,
  parseIpPrefix,
  type AllocationKind,
  type IpAddress,
  type IpFamily,
  type Problem,
} from '@noderings/domain';
import { z } from 'zod';

import { pageQuery } from '../../http/pagination.js';
import { ruled } from '../../http/ruled-schema.js';
import { wireEnum } from '../../http/wire-enum.js';
import { IP_ALLOCATION_STATUSES, type IpAllocation } from './allocation.repository.js';
import type { Network } from './network.repository.js';
import type { Prefix } from './prefix.repository.js';
import { MAX_RESERVED_IPS, MAX_RESERVED_PREFIXES, type PrefixUsage } from './prefix.service.js';

/** The longest spelling of an IPv6 address with an embedded IPv4 one, plus room for a prefix length. */
const MAX_ADDRESS_TEXT = 64;
const MAX_NAME_LENGTH = 100;
const MAX_DESCRIPTION_LENGTH = 500;
const MAX_DNS_SERVERS = 8;
const MAX_NODES_PER_ASSIGNMENT = 100;
const DEFAULT_AVAILABLE_LIMIT = 100;
const MAX_AVAILABLE_LIMIT = 1000;

/** The domain parser's own description of what is wrong with the text, as a schema rule. */
function parseProblem(parse: (text: string, field: string) => unknown): (text: string) => Problem {
  return (text) => {
    try {
      parse(text, '');
      return undefined;
    } catch (e: unknown) {
      if (e instanceof InvalidArgumentError) return e.fieldViolations[0]?.description ?? e.message;
      throw e;
    }
  };
}

const ipAddressText = ruled(z.string().max(MAX_ADDRESS_TEXT), parseProblem(parseIpAddress)).describe(
  'An IPv4 or IPv6 address, like 203.0.113.10 or 2001:db8::10.',
);
const cidrText = ruled(z.string().max(MAX_ADDRESS_TEXT), parseProblem(parseIpPrefix)).describe(
  'A CIDR prefix without host bits, like 203.0.113.0/24 or 2001:db8::/48.',
);
/** Counts can exceed 2^53 (a /64 of single addresses holds 2^64), so they travel as proto3 JSON int64 does. */
const count = z.string().describe('A decimal integer, as a string: it may exceed what a JSON number holds.');

const networkName = z
  .string()
  .max(MAX_NAME_LENGTH)
  .refine((name) => name.trim() !== '', 'must not be blank');

const networkFields = {
  name: networkName,
  dnsServers: z
    .array(ipAddressText)
    .max(MAX_DNS_SERVERS)
    .describe('Nameservers written into the VMs of the network.'),
  macAddressPrefix: ruled(z.string(), macAddressPrefixProblem).describe(
    'Three octets VM MACs start with, like BC:24:11 (Proxmox’s own prefix; use your own on public networks).',
  ),
};

export const createNetworkBody = z.strictObject({
  name: networkFields.name,
  dnsServers: networkFields.dnsServers.optional(),
  macAddressPrefix: networkFields.macAddressPrefix.optional(),
});

export const updateNetworkBody = z.strictObject(networkFields).partial();

export const assignNodesBody = z.strictObject({
  nodeIds: z.array(z.uuid()).min(1).max(MAX_NODES_PER_ASSIGNMENT),
});

const networkNodeView = z
  .object({ id: z.string(), name: z.string(), platformId: z.string(), regionId: z.string() })
  .meta({ id: 'IpamNetworkNode' });

export const networkView = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    name: z.string(),
    dnsServers: z.array(z.string()),
    macAddressPrefix: z.string(),
    nodes: z.array(networkNodeView),
    createTime: z.string(),
    updateTime: z.string(),
  })
  .meta({ id: 'IpamNetwork' });

export const networkNodesResponse = z.object({ nodes: z.array(networkNodeView), total: z.number().int() });

export function toNetworkView(n: Network): z.infer<typeof networkView> {
  return {
    id: n.id,
    organizationId: n.organizationId,
    name: n.name,
    dnsServers: [...n.dnsServers],
    macAddressPrefix: n.macAddressPrefix,
    nodes: n.nodes.map((node) => ({ ...node })),
    createTime: n.createdAt.toISOString(),
    updateTime: n.updatedAt.toISOString(),
  };
}

const prefixFields = {
  cidr: cidrText,
  gateway: ipAddressText.describe('A usable host address inside the CIDR.'),
  allocationStrategy: z
    .enum(ALLOCATION_STRATEGIES)
    .describe('How the next address is chosen; SEQUENTIAL (the default) lets released addresses rest.'),
  description: z.string().max(MAX_DESCRIPTION_LENGTH),
  networkId: z.uuid().nullable().describe('The network whose nodes allocate from this prefix.'),
  vmAssignmentPrefixLength: z
    .number()
    .int()
    .min(0)
    .max(128)
    .nullable()
    .describe(
      'Required for IPv6: 64 gives each VM a /64, 128 one address. IPv4 prefixes always give one (32).',
    ),
  reservedIps: z.array(ipAddressText).max(MAX_RESERVED_IPS),
  reservedPrefixes: z.array(cidrText).max(MAX_RESERVED_PREFIXES),
};

export const createPrefixBody = z.strictObject({
  cidr: prefixFields.cidr,
  gateway: prefixFields.gateway,
  allocationStrategy: prefixFields.allocationStrategy.optional(),
  description: prefixFields.description.optional(),
  networkId: prefixFields.networkId.optional(),
  vmAssignmentPrefixLength: prefixFields.vmAssignmentPrefixLength.optional(),
  reservedIps: prefixFields.reservedIps.optional(),
  reservedPrefixes: prefixFields.reservedPrefixes.optional(),
});

export const updatePrefixBody = z.strictObject(prefixFields).partial();

export const reservedIpBody = z.strictObject({ ip: ipAddressText });
export const reservedPrefixBody = z.strictObject({ cidr: cidrText });
export const reservedIpParams = z.object({ id: z.uuid(), ip: ipAddressText });

export const listPrefixesQuery = pageQuery.extend({ filterNetworkId: z.uuid().optional() });
export const availableIpsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_AVAILABLE_LIMIT).default(DEFAULT_AVAILABLE_LIMIT),
});
export const listAllocationsQuery = pageQuery.extend({
  prefixId: z.uuid().optional(),
  status: z.enum(IP_ALLOCATION_STATUSES).optional(),
});

const family = wireEnum({ ipv4: 'IP_FAMILY_IPV4', ipv6: 'IP_FAMILY_IPV6' } satisfies Record<
  IpFamily,
  string
>);
const allocationKind = wireEnum({
  ipv4_host: 'IP_ALLOCATION_KIND_IPV4_HOST',
  ipv6_host: 'IP_ALLOCATION_KIND_IPV6_HOST',
  ipv6_prefix: 'IP_ALLOCATION_KIND_IPV6_PREFIX',
} satisfies Record<AllocationKind, string>);

export const prefixView = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    networkId: z.string().nullable(),
    cidr: z.string(),
    family: family.schema,
    gateway: z.string(),
    allocationStrategy: z.enum(ALLOCATION_STRATEGIES),
    description: z.string(),
    vmAssignmentPrefixLength: z.number().int(),
    reservedIps: z.array(z.string()),
    reservedPrefixes: z.array(z.string()),
    createTime: z.string(),
    updateTime: z.string(),
  })
  .meta({ id: 'IpamPrefix' });

export function toPrefixView(p: Prefix): z.infer<typeof prefixView> {
  return {
    id: p.id,
    organizationId: p.organizationId,
    networkId: p.networkId,
    cidr: formatIpPrefix(p.cidr),
    family: family.toWire(p.cidr.family),
    gateway: formatIpAddress(p.gateway),
    allocationStrategy: p.allocationStrategy,
    description: p.description,
    vmAssignmentPrefixLength: p.vmAssignmentPrefixLength,
    reservedIps: p.reservedIps.map(formatIpAddress),
    reservedPrefixes: p.reservedPrefixes.map(formatIpPrefix),
    createTime: p.createdAt.toISOString(),
    updateTime: p.updatedAt.toISOString(),
  };
}

const usageFields = {
  totalIps: count.describe('Slots VMs could hold: hosts minus reserved slots minus the gateway’s.'),
  allocatedCount: count,
  reservedCount: count.describe('Reserved slots not allocated.'),
  availableCount: count,
};

export const utilizationView = z
  .object({
    ...usageFields,
    utilizationPercent: z.number().describe('Allocated of total, rounded down to hundredths.'),
    capacityUnitLabel: z
      .string()
      .describe('What the counts count: "addresses", or "/64 prefixes" and the like.'),
    capacityIsOpenEnded: z
      .boolean()
      .describe(
        'The capacity is too large to be worth showing as a number (beyond 2^53): show it as unlimited.',
      ),
  })
  .meta({ id: 'IpamUtilization' });

export const availableIpsView = z.object({
  availableIps: z
    .array(z.string())
    .describe('The lowest free slots: addresses, or the first address of each free sub-prefix.'),
  ...usageFields,
});

export function toUtilizationView(u: PrefixUsage): z.infer<typeof utilizationView> {
  return {
    ...toCounts(u),
    utilizationPercent: u.utilizationPercent,
    capacityUnitLabel: u.capacityUnitLabel,
    capacityIsOpenEnded: u.capacityIsOpenEnded,
  };
}

export function toAvailableIpsView(
  addresses: readonly IpAddress[],
  u: PrefixUsage,
): z.infer<typeof availableIpsView> {
  return { availableIps: addresses.map(formatIpAddress), ...toCounts(u) };
}

function toCounts(u: PrefixUsage) {
  return {
    totalIps: u.totalIps.toString(),
    allocatedCount: u.allocatedCount.toString(),
    reservedCount: u.reservedCount.toString(),
    availableCount: u.availableCount.toString(),
  };
}

export const allocationView = z
  .object({
    id: z.string(),
    ipAddress: z.string(),
    status: z.enum(IP_ALLOCATION_STATUSES),
    prefixId: z.string(),
    virtualMachineId: z.string().nullable().describe('The VM (claim) holding the address.'),
    allocatedCidr: z
      .string()
      .describe('What the VM is configured with, like 203.0.113.10/24 or 2001:db8:0:1::/64.'),
    allocationKind: allocationKind.schema,
    createTime: z.string(),
    releaseTime: z.string().nullable(),
  })
  .meta({ id: 'IpAllocation' });

export function toAllocationView(a: IpAllocation): z.infer<typeof allocationView> {
  return {
    id: a.id,
    ipAddress: formatIpAddress(a.address),
    status: a.status,
    prefixId: a.prefixId,
    virtualMachineId: a.claimId,
    allocatedCidr: a.allocatedCidr,
    allocationKind: allocationKind.toWire(a.allocationKind),
    createTime: a.createdAt.toISOString(),
    releaseTime: a.releasedAt?.toISOString() ?? null,
  };
}
