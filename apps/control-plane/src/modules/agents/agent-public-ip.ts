import { BlockList, isIPv4 } from 'node:net';

/**
 * IPv4 ranges no peering tunnel can come from. Private ranges are not among them: agents behind NAT
 * announce their LAN address. Checked in order, so the broadcast address gets its own message.
 */
const UNUSABLE_RANGES: readonly {
  readonly prefix: string;
  readonly length: number;
  readonly what: string;
}[] = [
  { prefix: '0.0.0.0', length: 8, what: 'an unspecified ("this network") address' },
  { prefix: '127.0.0.0', length: 8, what: 'a loopback address' },
  { prefix: '169.254.0.0', length: 16, what: 'a link-local address' },
  { prefix: '224.0.0.0', length: 4, what: 'a multicast address' },
  { prefix: '255.255.255.255', length: 32, what: 'the broadcast address' },
  { prefix: '240.0.0.0', length: 4, what: 'a reserved address' },
];

const RULES = UNUSABLE_RANGES.map(({ prefix, length, what }) => {
  const list = new BlockList();
  list.addSubnet(prefix, length, 'ipv4');
  return { list, what };
});

/** Why an IPv4 address cannot be an agent's address; undefined if it can (or is no IPv4 address at all). */
export function agentPublicIpProblem(ip: string): string | undefined {
  if (!isIPv4(ip)) return undefined;
  const rule = RULES.find((r) => r.list.check(ip, 'ipv4'));
  return rule && `is ${rule.what}`;
}
