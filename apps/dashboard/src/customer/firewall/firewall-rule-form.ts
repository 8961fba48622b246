import type {
  FirewallAction,
  FirewallDirection,
  FirewallEndpoint,
  FirewallRuleSpec,
} from '../../api/api-resources.js';
import {
  addressList,
  listItems,
  optional,
  portOrRange,
  validate,
  type FieldErrors,
} from '../../ui/form-validation.js';

export interface RuleValues {
  readonly direction: FirewallDirection;
  readonly action: FirewallAction;
  readonly protocol: string;
  /** Comma- or space-separated addresses and prefixes; empty for any address. */
  readonly sourceIps: string;
  readonly destinationIps: string;
  readonly sourcePorts: string;
  readonly destinationPorts: string;
}

export const NEW_RULE: RuleValues = {
  direction: 'FIREWALL_DIRECTION_INGRESS',
  action: 'FIREWALL_ACTION_ACCEPT',
  protocol: 'FIREWALL_PROTOCOL_TCP',
  sourceIps: '',
  destinationIps: '',
  sourcePorts: '',
  destinationPorts: '',
};

/** The protocols people reach for; the API knows more, which rules created elsewhere may show. */
export const COMMON_PROTOCOLS: readonly { value: string; label: string }[] = [
  { value: 'FIREWALL_PROTOCOL_TCP', label: 'TCP' },
  { value: 'FIREWALL_PROTOCOL_UDP', label: 'UDP' },
  { value: 'FIREWALL_PROTOCOL_ICMP', label: 'ICMP' },
  { value: 'FIREWALL_PROTOCOL_ICMPV6', label: 'ICMPv6' },
  { value: 'FIREWALL_PROTOCOL_ANY', label: 'Any protocol' },
  { value: 'FIREWALL_PROTOCOL_SCTP', label: 'SCTP' },
  { value: 'FIREWALL_PROTOCOL_DCCP', label: 'DCCP' },
  { value: 'FIREWALL_PROTOCOL_UDPLITE', label: 'UDP-Lite' },
  { value: 'FIREWALL_PROTOCOL_GRE', label: 'GRE' },
  { value: 'FIREWALL_PROTOCOL_ESP', label: 'ESP' },
  { value: 'FIREWALL_PROTOCOL_AH', label: 'AH' },
  { value: 'FIREWALL_PROTOCOL_OSPF', label: 'OSPF' },
  { value: 'FIREWALL_PROTOCOL_VRRP', label: 'VRRP' },
  { value: 'FIREWALL_PROTOCOL_IGMP', label: 'IGMP' },
];

/** Proxmox takes ports only with these protocols; the API refuses ports with any other. */
const PORT_PROTOCOLS: ReadonlySet<string> = new Set([
  'FIREWALL_PROTOCOL_TCP',
  'FIREWALL_PROTOCOL_UDP',
  'FIREWALL_PROTOCOL_SCTP',
  'FIREWALL_PROTOCOL_DCCP',
  'FIREWALL_PROTOCOL_UDPLITE',
]);

export function protocolTakesPorts(protocol: string): boolean {
  return PORT_PROTOCOLS.has(protocol);
}

export function validateRule(values: RuleValues): FieldErrors {
  const errors: Record<string, string> = validate(
    { ...values },
    {
      sourceIps: [optional(addressList)],
      destinationIps: [optional(addressList)],
      sourcePorts: [optional(portOrRange)],
      destinationPorts: [optional(portOrRange)],
    },
  );
  if (!protocolTakesPorts(values.protocol))
    for (const field of ['sourcePorts', 'destinationPorts'] as const)
      if (values[field].trim() !== '')
        errors[field] = 'Ports apply only to TCP, UDP, SCTP, DCCP and UDP-Lite.';
  return errors;
}

function endpoint(ips: string): { ips: string[] } | undefined {
  const items = listItems(ips);
  return items.length === 0 ? undefined : { ips: items };
}

/** `POST /v1/firewall/rulesets/{id}/rules`; empty fields are left out (any address, any port). */
export function ruleRequest(values: RuleValues) {
  const source = endpoint(values.sourceIps);
  const destination = endpoint(values.destinationIps);
  return {
    rule: {
      direction: values.direction,
      action: values.action,
      protocol: values.protocol,
      ...(source !== undefined && { source }),
      ...(destination !== undefined && { destination }),
      ...(values.sourcePorts.trim() !== '' && { sourcePorts: values.sourcePorts.trim() }),
      ...(values.destinationPorts.trim() !== '' && { destinationPorts: values.destinationPorts.trim() }),
    },
  };
}

/** The form's field each API field path belongs to (`rule.source.ips.2` → sourceIps). */
export const RULE_FIELD_PATHS: Readonly<Record<keyof RuleValues, string>> = {
  direction: 'direction',
  action: 'action',
  protocol: 'protocol',
  sourceIps: 'source',
  destinationIps: 'destination',
  sourcePorts: 'sourcePorts',
  destinationPorts: 'destinationPorts',
};

export function protocolName(protocol: string): string {
  return (
    COMMON_PROTOCOLS.find((p) => p.value === protocol)?.label ??
    protocol.replace(/^FIREWALL_PROTOCOL_/, '').replaceAll('_', '-')
  );
}

/** "Any", or the addresses, tags and groups an endpoint names. */
export function endpointLabel(e: FirewallEndpoint | undefined): string {
  if (e === undefined) return 'Any';
  const parts = [
    ...e.ips,
    ...e.vmTags.map((t) => `VMs tagged ${t}`),
    ...(e.addressGroupIds.length > 0
      ? [`${e.addressGroupIds.length} address ${e.addressGroupIds.length === 1 ? 'group' : 'groups'}`]
      : []),
  ];
  return parts.length === 0 ? 'Any' : parts.join(', ');
}

/** One line for a rule, for its row's buttons: "Accept inbound TCP port 22 from any address". */
export function ruleSummary(rule: FirewallRuleSpec): string {
  const action = rule.action === 'FIREWALL_ACTION_ACCEPT' ? 'Accept' : 'Drop';
  const direction = rule.direction === 'FIREWALL_DIRECTION_INGRESS' ? 'inbound' : 'outbound';
  const ports = rule.destinationPorts === undefined ? '' : ` port ${rule.destinationPorts}`;
  const inbound = rule.direction === 'FIREWALL_DIRECTION_INGRESS';
  const label = endpointLabel(inbound ? rule.source : rule.destination);
  const peer = `${inbound ? ' from' : ' to'} ${label === 'Any' ? 'any address' : label}`;
  return `${action} ${direction} ${protocolName(rule.protocol)}${ports}${peer}`;
}
