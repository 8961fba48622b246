import type { IpFamily } from './ip-prefix.js';
import type { Problem } from './node-settings.js';

/**
 * The firewall protocols of the NodeRings API, each with the name Proxmox's protocol selector (and
 * `/etc/protocols`) gives it. ANY leaves the protocol unset. Legacy values with an exact meaning are
 * accepted (ICMPV6 is IPv6-ICMP); those that stand for several protocols or for a UDP port are refused
 * with what to use instead.
 */
const PROXMOX_PROTOCOLS = {
  FIREWALL_PROTOCOL_ANY: undefined,
  FIREWALL_PROTOCOL_TCP: 'tcp',
  FIREWALL_PROTOCOL_UDP: 'udp',
  FIREWALL_PROTOCOL_SCTP: 'sctp',
  FIREWALL_PROTOCOL_IPV6: 'ipv6',
  FIREWALL_PROTOCOL_ICMP: 'icmp',
  FIREWALL_PROTOCOL_ICMPV6: 'ipv6-icmp',
  FIREWALL_PROTOCOL_ESP: 'esp',
  FIREWALL_PROTOCOL_AH: 'ah',
  FIREWALL_PROTOCOL_IPSEC: undefined,
  FIREWALL_PROTOCOL_GRE: 'gre',
  FIREWALL_PROTOCOL_IPIP: 'ipip',
  FIREWALL_PROTOCOL_VXLAN: undefined,
  FIREWALL_PROTOCOL_L2TP: 'l2tp',
  FIREWALL_PROTOCOL_GENEVE: undefined,
  FIREWALL_PROTOCOL_IGMP: 'igmp',
  FIREWALL_PROTOCOL_GGP: 'ggp',
  FIREWALL_PROTOCOL_IPENCAP: 'ipencap',
  FIREWALL_PROTOCOL_ST: 'st',
  FIREWALL_PROTOCOL_EGP: 'egp',
  FIREWALL_PROTOCOL_IGP: 'igp',
  FIREWALL_PROTOCOL_PUP: 'pup',
  FIREWALL_PROTOCOL_HMP: 'hmp',
  FIREWALL_PROTOCOL_XNS_IDP: 'xns-idp',
  FIREWALL_PROTOCOL_RDP: 'rdp',
  FIREWALL_PROTOCOL_ISO_TP4: 'iso-tp4',
  FIREWALL_PROTOCOL_DCCP: 'dccp',
  FIREWALL_PROTOCOL_XTP: 'xtp',
  FIREWALL_PROTOCOL_DDP: 'ddp',
  FIREWALL_PROTOCOL_IDPR_CMTP: 'idpr-cmtp',
  FIREWALL_PROTOCOL_IPV6_ROUTE: 'ipv6-route',
  FIREWALL_PROTOCOL_IPV6_FRAG: 'ipv6-frag',
  FIREWALL_PROTOCOL_IDRP: 'idrp',
  FIREWALL_PROTOCOL_RSVP: 'rsvp',
  FIREWALL_PROTOCOL_SKIP: 'skip',
  FIREWALL_PROTOCOL_IPV6_ICMP: 'ipv6-icmp',
  FIREWALL_PROTOCOL_IPV6_NONXT: 'ipv6-nonxt',
  FIREWALL_PROTOCOL_IPV6_OPTS: 'ipv6-opts',
  FIREWALL_PROTOCOL_VMTP: 'vmtp',
  FIREWALL_PROTOCOL_EIGRP: 'eigrp',
  FIREWALL_PROTOCOL_OSPF: 'ospf',
  // `ax.25` has a dot, which the FirewallRuleSet schema's protocol pattern refuses: its number instead.
  FIREWALL_PROTOCOL_AX_25: '93',
  FIREWALL_PROTOCOL_ETHERIP: 'etherip',
  FIREWALL_PROTOCOL_ENCAP: 'encap',
  FIREWALL_PROTOCOL_PIM: 'pim',
  FIREWALL_PROTOCOL_IPCOMP: 'ipcomp',
  FIREWALL_PROTOCOL_VRRP: 'vrrp',
  FIREWALL_PROTOCOL_ISIS: 'isis',
  FIREWALL_PROTOCOL_FC: 'fc',
  FIREWALL_PROTOCOL_MOBILITY_HEADER: 'mobility-header',
  FIREWALL_PROTOCOL_UDPLITE: 'udplite',
  FIREWALL_PROTOCOL_MPLS_IN_IP: 'mpls-in-ip',
  FIREWALL_PROTOCOL_HIP: 'hip',
  FIREWALL_PROTOCOL_SHIM6: 'shim6',
  FIREWALL_PROTOCOL_WESP: 'wesp',
  FIREWALL_PROTOCOL_ROHC: 'rohc',
} as const;

export type FirewallProtocol = keyof typeof PROXMOX_PROTOCOLS;

export const FIREWALL_PROTOCOLS = Object.keys(PROXMOX_PROTOCOLS) as [FirewallProtocol, ...FirewallProtocol[]];

const REFUSED_LEGACY_PROTOCOLS: Partial<Record<FirewallProtocol, string>> = {
  FIREWALL_PROTOCOL_IPSEC:
    'is a legacy value standing for several protocols: add rules for ESP, AH, and UDP ports 500 and 4500',
  FIREWALL_PROTOCOL_VXLAN: 'is a legacy value: VXLAN is UDP, destinationPorts 4789',
  FIREWALL_PROTOCOL_GENEVE: 'is a legacy value: Geneve is UDP, destinationPorts 6081',
};

/** Protocols with ports, as Proxmox has them: `sport`/`dport` with any other protocol is refused. */
const PROTOCOLS_WITH_PORTS: ReadonlySet<FirewallProtocol> = new Set([
  'FIREWALL_PROTOCOL_TCP',
  'FIREWALL_PROTOCOL_UDP',
  'FIREWALL_PROTOCOL_SCTP',
  'FIREWALL_PROTOCOL_DCCP',
  'FIREWALL_PROTOCOL_UDPLITE',
]);

/** Protocols that exist in one address family only: a rule with them matches no packet of the other. */
const PROTOCOL_FAMILY: Partial<Record<FirewallProtocol, IpFamily>> = {
  FIREWALL_PROTOCOL_ICMP: 'ipv4',
  FIREWALL_PROTOCOL_ICMPV6: 'ipv6',
  FIREWALL_PROTOCOL_IPV6_ICMP: 'ipv6',
};

export function firewallProtocolProblem(protocol: FirewallProtocol): Problem {
  return REFUSED_LEGACY_PROTOCOLS[protocol];
}

export function protocolHasPorts(protocol: FirewallProtocol): boolean {
  return PROTOCOLS_WITH_PORTS.has(protocol);
}

/** The `proto` Proxmox takes; undefined for ANY (and for the refused legacy values). */
export function proxmoxProtocolOf(protocol: FirewallProtocol): string | undefined {
  return PROXMOX_PROTOCOLS[protocol];
}

export function protocolFamily(protocol: FirewallProtocol): IpFamily | undefined {
  return PROTOCOL_FAMILY[protocol];
}
