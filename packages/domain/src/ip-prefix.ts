import { InvalidArgumentError } from './domain-error.js';
import type { Problem } from './node-settings.js';

/**
 * IPv4 and IPv6 addresses and CIDR prefixes as BigInt values, so that one set of arithmetic serves both
 * families and a /64 or /48 costs no more than a /24. Parsing accepts only the standard textual forms
 * (dotted quad without leading zeros; RFC 4291 hex groups with at most one "::") and formatting always
 * gives one canonical spelling (RFC 5952 for IPv6), so two spellings of one address can never be stored as
 * two different addresses.
 */

export type IpFamily = 'ipv4' | 'ipv6';

export interface IpAddress {
  readonly family: IpFamily;
  readonly value: bigint;
}

/** A CIDR block; `network` never has host bits set. */
export interface IpPrefix {
  readonly family: IpFamily;
  readonly network: bigint;
  readonly length: number;
}

const ADDRESS_BITS: Record<IpFamily, number> = { ipv4: 32, ipv6: 128 };
const FAMILY_NAME: Record<IpFamily, string> = { ipv4: 'IPv4', ipv6: 'IPv6' };

/**
 * The longest prefix that is still a shared subnet, whose network (and IPv4 broadcast) address no host may
 * take. Longer prefixes are point-to-point links (/31 per RFC 3021, /127 per RFC 6164) or single addresses
 * (/32, /128), where every address belongs to a host.
 */
const LONGEST_SHARED_SUBNET: Record<IpFamily, number> = { ipv4: 30, ipv6: 126 };

const IPV4_OCTET = /^[0-9]{1,3}$/;
const IPV6_GROUP = /^[0-9A-Fa-f]{1,4}$/;
const PREFIX_LENGTH = /^(?:0|[1-9][0-9]{0,2})$/;
const IPV6_GROUPS = 8;
const IPV6_GROUP_BITS = 16n;
const IPV6_GROUP_MASK = 0xffffn;
const MAX_OCTET = 255;
/** ::ffff:0:0/96 (RFC 4291 §2.5.5.2): shown with its IPv4 address in dotted form, as RFC 5952 §5 asks. */
const IPV4_MAPPED_HIGH_BITS = 0xffffn;
const IPV4_BITS = 32n;

const NOT_AN_ADDRESS = 'must be an IPv4 address like 192.0.2.10 or an IPv6 address like 2001:db8::10';
const NOT_A_PREFIX = 'must be a CIDR prefix like 192.0.2.0/24 or 2001:db8::/48';

export function addressBits(family: IpFamily): number {
  return ADDRESS_BITS[family];
}

function hostMask(family: IpFamily, length: number): bigint {
  return (1n << BigInt(ADDRESS_BITS[family] - length)) - 1n;
}

/** The highest address of the prefix (the IPv4 broadcast address of a shared subnet). */
export function lastAddress(prefix: IpPrefix): bigint {
  return prefix.network | hostMask(prefix.family, prefix.length);
}

/** Parses one address; the error names `field` and says what is wrong. */
export function parseIpAddress(text: string, field: string): IpAddress {
  const family: IpFamily = text.includes(':') ? 'ipv6' : 'ipv4';
  const value = family === 'ipv6' ? ipv6Value(text) : ipv4Value(text);
  if (typeof value === 'string') throw InvalidArgumentError.field(field, value);
  return { family, value };
}

/** Parses `address/length`; an address with host bits set is refused, naming the network it belongs to. */
export function parseIpPrefix(text: string, field: string): IpPrefix {
  const slash = text.indexOf('/');
  if (slash < 0) throw InvalidArgumentError.field(field, NOT_A_PREFIX);
  const address = parseIpAddress(text.slice(0, slash), field);
  const lengthText = text.slice(slash + 1);
  const bits = ADDRESS_BITS[address.family];
  if (!PREFIX_LENGTH.test(lengthText) || Number(lengthText) > bits)
    throw InvalidArgumentError.field(field, `must end in a prefix length from /0 to /${bits}`);
  const length = Number(lengthText);
  const network = address.value & ~hostMask(address.family, length);
  if (network !== address.value) {
    const canonical = formatIpPrefix({ family: address.family, network, length });
    throw InvalidArgumentError.field(field, `has host bits set: the network is ${canonical}`);
  }
  return { family: address.family, network, length };
}

export function formatIpAddress(address: IpAddress): string {
  return address.family === 'ipv4' ? formatIpv4(address.value) : formatIpv6(address.value);
}

export function formatIpPrefix(prefix: IpPrefix): string {
  return `${formatIpAddress({ family: prefix.family, value: prefix.network })}/${prefix.length}`;
}

/** Whether `inner` (an address, or every address of a prefix) lies in `prefix`. */
export function prefixContains(prefix: IpPrefix, inner: IpAddress | IpPrefix): boolean {
  if (inner.family !== prefix.family) return false;
  const [first, last] = 'length' in inner ? [inner.network, lastAddress(inner)] : [inner.value, inner.value];
  return first >= prefix.network && last <= lastAddress(prefix);
}

/** Two prefixes overlap exactly when one contains the other: CIDR blocks never partly intersect. */
export function prefixesOverlap(a: IpPrefix, b: IpPrefix): boolean {
  return a.family === b.family && a.network <= lastAddress(b) && b.network <= lastAddress(a);
}

/**
 * The addresses a host (a VM or the gateway) may take. A shared IPv4 subnet loses its network and broadcast
 * addresses; a shared IPv6 subnet loses only its subnet-router anycast address (the all-zero interface
 * identifier, RFC 4291 §2.6.1), because IPv6 has no broadcast. Point-to-point and single-address prefixes
 * lose nothing. Never empty.
 */
export function usableHostRange(prefix: IpPrefix): { readonly first: IpAddress; readonly last: IpAddress } {
  const shared = prefix.length <= LONGEST_SHARED_SUBNET[prefix.family];
  const top = lastAddress(prefix);
  return {
    first: { family: prefix.family, value: shared ? prefix.network + 1n : prefix.network },
    last: { family: prefix.family, value: shared && prefix.family === 'ipv4' ? top - 1n : top },
  };
}

/** A gateway must be a host of the prefix it serves: inside it, and not an address no host may take. */
export function gatewayProblem(prefix: IpPrefix, gateway: IpAddress): Problem {
  const cidr = formatIpPrefix(prefix);
  if (gateway.family !== prefix.family)
    return `must be an ${FAMILY_NAME[prefix.family]} address, like the prefix ${cidr}`;
  if (!prefixContains(prefix, gateway)) return `must lie inside the prefix ${cidr}`;
  const { first, last } = usableHostRange(prefix);
  if (gateway.value < first.value || gateway.value > last.value)
    return prefix.family === 'ipv4'
      ? `must be a usable host address of ${cidr}, not its network or broadcast address`
      : `must be a usable host address of ${cidr}, not its subnet-router anycast address`;
  return undefined;
}

function ipv4Value(text: string): bigint | string {
  const octets = text.split('.');
  if (octets.length !== 4 || !octets.every((octet) => IPV4_OCTET.test(octet))) return NOT_AN_ADDRESS;
  let value = 0n;
  for (const octet of octets) {
    // 010 means 8 to inet_aton and 10 to most people: refuse the ambiguity rather than pick one.
    if (octet.length > 1 && octet.startsWith('0'))
      return `must not have leading zeros in an IPv4 octet (${octet})`;
    if (Number(octet) > MAX_OCTET) return `has the IPv4 octet ${octet}, above ${MAX_OCTET}`;
    value = (value << 8n) | BigInt(octet);
  }
  return value;
}

function ipv6Value(text: string): bigint | string {
  if (text.includes('%'))
    return 'must not carry a zone index (%...): a zone only means something on one host';
  const halves = text.split('::');
  if (halves.length > 2) return 'may use "::" only once';
  const compressed = halves.length === 2;
  // Only the address's last piece may be an embedded IPv4 address (::ffff:192.0.2.1).
  const head = ipv6Groups(halves[0] ?? '', !compressed);
  if (typeof head === 'string') return head;
  const tail = compressed ? ipv6Groups(halves[1] ?? '', true) : [];
  if (typeof tail === 'string') return tail;
  const count = head.length + tail.length;
  if (compressed ? count >= IPV6_GROUPS : count !== IPV6_GROUPS)
    return `must have ${IPV6_GROUPS} groups of up to four hex digits, or fewer with one "::"`;
  const zeros: number[] = new Array<number>(IPV6_GROUPS - count).fill(0);
  return [...head, ...zeros, ...tail].reduce(
    (value, group) => (value << IPV6_GROUP_BITS) | BigInt(group),
    0n,
  );
}

function ipv6Groups(part: string, mayEndInIpv4: boolean): number[] | string {
  if (part === '') return [];
  const pieces = part.split(':');
  const groups: number[] = [];
  for (const [index, piece] of pieces.entries()) {
    if (piece.includes('.') && mayEndInIpv4 && index === pieces.length - 1) {
      const ipv4 = ipv4Value(piece);
      if (typeof ipv4 === 'string') return ipv4;
      groups.push(Number(ipv4 >> IPV6_GROUP_BITS), Number(ipv4 & IPV6_GROUP_MASK));
    } else if (IPV6_GROUP.test(piece)) {
      groups.push(parseInt(piece, 16));
    } else if (piece.includes('.')) {
      return 'may hold an embedded IPv4 address only as its last 32 bits (::ffff:192.0.2.1)';
    } else {
      return piece === '' ? NOT_AN_ADDRESS : `has "${piece}", not a group of one to four hex digits`;
    }
  }
  return groups;
}

function formatIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => ((value >> shift) & 0xffn).toString()).join('.');
}

/** RFC 5952 §4: lower case, no leading zeros, the longest run of two or more zero groups (the first on a tie) as "::". */
function formatIpv6(value: bigint): string {
  if (value >> IPV4_BITS === IPV4_MAPPED_HIGH_BITS) return `::ffff:${formatIpv4(value & 0xffffffffn)}`;
  const groups = Array.from({ length: IPV6_GROUPS }, (_, i) =>
    Number((value >> (BigInt(IPV6_GROUPS - 1 - i) * IPV6_GROUP_BITS)) & IPV6_GROUP_MASK),
  );
  let runStart = -1;
  let runLength = 1;
  for (let i = 0; i < IPV6_GROUPS; i++) {
    if (groups[i] !== 0) continue;
    let end = i;
    while (end < IPV6_GROUPS && groups[end] === 0) end++;
    if (end - i > runLength) [runStart, runLength] = [i, end - i];
    i = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (runStart < 0) return hex.join(':');
  return `${hex.slice(0, runStart).join(':')}::${hex.slice(runStart + runLength).join(':')}`;
}
