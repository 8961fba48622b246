import {
  formatIpAddress,
  parseIpPrefix,
  prefixContains,
  prefixesOverlap,
  type IpAddress,
  type IpPrefix,
} from './ip-prefix.js';
import type { Problem } from './node-settings.js';

/**
 * What a special-purpose range is for, as far as NodeRings cares: `private` space (RFC 1918, shared
 * carrier-grade NAT space, IPv6 unique local) and `documentation` ranges are real networks' addresses that
 * are not routed on the internet, so every organisation may use them, and they may repeat; `reserved`
 * ranges are no network's addresses at all (loopback, link-local, multicast, the unspecified address,
 * IPv4-mapped IPv6, …).
 */
export type AddressUse = 'private' | 'documentation' | 'reserved';

export interface SpecialPurposeRange {
  readonly cidr: string;
  readonly what: string;
  readonly use: AddressUse;
}

/** The IANA IPv4 and IPv6 special-purpose address registries (RFC 6890 and its updates), less nothing. */
export const SPECIAL_PURPOSE_RANGES: readonly SpecialPurposeRange[] = [
  { cidr: '0.0.0.0/8', what: '"this network" (unspecified) space', use: 'reserved' },
  { cidr: '10.0.0.0/8', what: 'private space (RFC 1918)', use: 'private' },
  { cidr: '100.64.0.0/10', what: 'shared carrier-grade NAT space (RFC 6598)', use: 'private' },
  { cidr: '127.0.0.0/8', what: 'loopback space', use: 'reserved' },
  { cidr: '169.254.0.0/16', what: 'link-local space', use: 'reserved' },
  { cidr: '172.16.0.0/12', what: 'private space (RFC 1918)', use: 'private' },
  { cidr: '192.0.0.0/24', what: 'IETF protocol assignment space', use: 'reserved' },
  { cidr: '192.0.2.0/24', what: 'documentation space (TEST-NET-1)', use: 'documentation' },
  { cidr: '192.88.99.0/24', what: 'the retired 6to4 relay anycast space', use: 'reserved' },
  { cidr: '192.168.0.0/16', what: 'private space (RFC 1918)', use: 'private' },
  { cidr: '198.18.0.0/15', what: 'benchmarking space (RFC 2544)', use: 'reserved' },
  { cidr: '198.51.100.0/24', what: 'documentation space (TEST-NET-2)', use: 'documentation' },
  { cidr: '203.0.113.0/24', what: 'documentation space (TEST-NET-3)', use: 'documentation' },
  { cidr: '224.0.0.0/4', what: 'multicast space', use: 'reserved' },
  { cidr: '240.0.0.0/4', what: 'reserved space (and the broadcast address)', use: 'reserved' },
  { cidr: '::/128', what: 'the unspecified address', use: 'reserved' },
  { cidr: '::1/128', what: 'the loopback address', use: 'reserved' },
  { cidr: '::ffff:0.0.0.0/96', what: 'IPv4-mapped space (use the IPv4 address itself)', use: 'reserved' },
  { cidr: '64:ff9b::/96', what: 'NAT64 translation space', use: 'reserved' },
  { cidr: '64:ff9b:1::/48', what: 'local NAT64 translation space', use: 'reserved' },
  { cidr: '100::/64', what: 'discard-only space', use: 'reserved' },
  { cidr: '2001::/32', what: 'Teredo tunnelling space', use: 'reserved' },
  { cidr: '2001:2::/48', what: 'benchmarking space', use: 'reserved' },
  { cidr: '2001:10::/28', what: 'ORCHID space', use: 'reserved' },
  { cidr: '2001:20::/28', what: 'ORCHIDv2 space', use: 'reserved' },
  { cidr: '2001:db8::/32', what: 'documentation space', use: 'documentation' },
  { cidr: '2002::/16', what: '6to4 tunnelling space', use: 'reserved' },
  { cidr: '3fff::/20', what: 'documentation space', use: 'documentation' },
  { cidr: 'fc00::/7', what: 'unique local space', use: 'private' },
  { cidr: 'fe80::/10', what: 'link-local space', use: 'reserved' },
  { cidr: 'fec0::/10', what: 'the deprecated site-local space', use: 'reserved' },
  { cidr: 'ff00::/8', what: 'multicast space', use: 'reserved' },
];

/** IPv6 global unicast: everything outside it (and the ranges above) is unassigned, reserved by the IETF. */
const GLOBAL_UNICAST_V6 = parseIpPrefix('2000::/3', 'GLOBAL_UNICAST_V6');
const UNASSIGNED_V6: SpecialPurposeRange = {
  cidr: '2000::/3',
  what: 'IPv6 space outside global unicast (2000::/3)',
  use: 'reserved',
};

const RANGES = SPECIAL_PURPOSE_RANGES.map((range) => ({
  range,
  prefix: parseIpPrefix(range.cidr, 'SPECIAL_PURPOSE_RANGES'),
}));

/** The special-purpose range an address lies in; undefined for a public (globally routed) address. */
export function specialPurposeRangeOf(address: IpAddress): SpecialPurposeRange | undefined {
  const found = RANGES.find(({ prefix }) => prefixContains(prefix, address))?.range;
  if (found !== undefined) return found;
  return address.family === 'ipv6' && !prefixContains(GLOBAL_UNICAST_V6, address) ? UNASSIGNED_V6 : undefined;
}

/**
 * What a prefix is for: `reserved` (with the range) when it reaches into reserved space; the use of the
 * one range that holds it all (`private`, `documentation`); otherwise `public`, since it holds public
 * addresses (10.0.0.0/7 holds 11.0.0.0/8).
 */
export function prefixUse(prefix: IpPrefix): { readonly use: AddressUse | 'public'; readonly what?: string } {
  const overlapping = RANGES.filter((r) => prefixesOverlap(r.prefix, prefix));
  const reserved = overlapping.find((r) => r.range.use === 'reserved');
  if (reserved !== undefined) return { use: 'reserved', what: reserved.range.what };
  const holder = overlapping.find((r) => prefixContains(r.prefix, prefix));
  if (holder !== undefined) return { use: holder.range.use, what: holder.range.what };
  if (prefix.family === 'ipv6' && !prefixContains(GLOBAL_UNICAST_V6, prefix))
    return { use: 'reserved', what: UNASSIGNED_V6.what };
  return { use: 'public' };
}

/**
 * Why an address is not public, where one must be (an agent's address, where the world reaches it; a
 * server the control plane dials): private, shared, documentation and reserved addresses all are not.
 */
export function publicAddressProblem(address: IpAddress): Problem {
  const range = specialPurposeRangeOf(address);
  return range === undefined
    ? undefined
    : `must be a public address reachable from the internet; ${formatIpAddress(address)} is in ${range.what}`;
}
