import { BlockList, isIP } from 'node:net';

import { formatIpPrefix, parseIpAddress } from '@noderings/domain';

/** Parses `allowedIps` entries (addresses or CIDR prefixes); undefined when an entry is not one. */
export function parseAllowList(entries: readonly string[]): BlockList | undefined {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', lengthText] = entry.split('/');
    const family = isIP(address);
    if (family === 0) return undefined;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    const maxLength = family === 4 ? 32 : 128;
    const length = lengthText === undefined ? maxLength : Number(lengthText);
    if (
      !Number.isInteger(length) ||
      length < 0 ||
      length > maxLength ||
      (lengthText !== undefined && !/^\d+$/.test(lengthText))
    ) {
      return undefined;
    }
    list.addSubnet(address, length, type);
  }
  return list;
}

export function isAllowed(entries: readonly string[], ip: string): boolean {
  if (entries.length === 0) return true;
  const list = parseAllowList(entries);
  if (list === undefined) return false;
  // An IPv4 client reached over a dual-stack socket shows as ::ffff:a.b.c.d.
  const plain = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  const family = isIP(plain);
  if (family === 0) return false;
  return list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

/** proxy-addr's names for address ranges, usable in the trusted-proxy list beside addresses and prefixes. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Checks the proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed: addresses, CIDR
 * prefixes or `loopback`/`linklocal`/`uniquelocal`. Returns what is wrong with the list, or undefined.
 */
export function trustedProxyListProblem(entries: readonly string[]): string | undefined {
  if (entries.length === 0) return 'names no proxy';
  const bad = entries.find((e) => !PROXY_RANGE_NAMES.has(e) && parseAllowList([e]) === undefined);
  return bad === undefined
    ? undefined
    : `"${bad}" is not an IP address, a CIDR prefix or one of ${[...PROXY_RANGE_NAMES].join(', ')}`;
}

/**
 * The key a client's address is counted under by the sign-in and registration throttles: an IPv4
 * address itself (also when it reached a dual-stack socket as ::ffff:a.b.c.d), an IPv6 address by its
 * /64, which one subscriber holds whole, so that rotating through a /64 does not escape a limit.
 */
export function clientAddressKey(ip: string): string {
  const plain = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  if (isIP(plain) !== 6) return plain;
  // A link-local peer carries its zone (fe80::1%eth0); the zone is not part of the address.
  const address = parseIpAddress(plain.split('%')[0] ?? plain, 'ip');
  return formatIpPrefix({ family: 'ipv6', network: address.value & ~IPV6_HOST_BITS, length: 64 });
}

const IPV6_HOST_BITS = (1n << 64n) - 1n;
