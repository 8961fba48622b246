import { BlockList, isIP } from 'node:net';

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
