import { usageError } from './cli-error.js';
import { renderFields, renderTable } from './output.js';

/** An agent as `/v1/agents` answers it (the fields the CLI shows; JSON output passes every field on). */
export interface Agent {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly agentPublicIp: string;
  readonly gwServerServicePort: number;
  readonly provisioned: boolean;
  readonly gatewayRegion: string;
  readonly hypervisorDriver: string;
  readonly inboundPeeringState: string;
  readonly inboundPeeringError: string;
  readonly serviceStatus: string;
  readonly serviceStatusReason: string;
  readonly createTime: string;
  readonly updateTime: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ENUM_WORD = /^[A-Za-z0-9_]+$/;

export function agentIdOf(value: string): string {
  if (!UUID.test(value)) throw usageError(`the agent id must be a UUID, not "${value}"`);
  return value.toLowerCase();
}

/**
 * A wire enum value (`TYPE_NAME_VALUE`) from what a person types: `ams01` and
 * `AGENT_GATEWAY_REGION_AMS01` both give the latter. The API decides which values exist.
 */
export function wireEnumOf(prefix: string, flag: string, value: string): string {
  if (!ENUM_WORD.test(value)) throw usageError(`--${flag} must be a word like ${prefix}…, not "${value}"`);
  const upper = value.toUpperCase();
  return upper.startsWith(`${prefix}_`) ? upper : `${prefix}_${upper}`;
}

export const GATEWAY_REGION_PREFIX = 'AGENT_GATEWAY_REGION';
export const HYPERVISOR_DRIVER_PREFIX = 'HYPERVISOR_DRIVER';

export function renderAgent(a: Agent): string {
  const fields: [string, string][] = [
    ['ID', a.id],
    ['Name', a.name],
    ['Description', a.description === '' ? '-' : a.description],
    ['Public IP', a.agentPublicIp],
    ['Gateway region', a.gatewayRegion],
    ['Gateway service port', String(a.gwServerServicePort)],
    ['Hypervisor driver', a.hypervisorDriver],
    ['Provisioned', a.provisioned ? 'yes' : 'no'],
    ['Inbound peering', a.inboundPeeringState],
  ];
  if (a.inboundPeeringError !== '') fields.push(['Inbound peering error', a.inboundPeeringError]);
  fields.push(
    ['Service status', `${a.serviceStatus} (${a.serviceStatusReason})`],
    ['Created', a.createTime],
    ['Updated', a.updateTime],
  );
  return renderFields(fields);
}

export function renderAgentTable(agents: readonly Agent[]): string {
  if (agents.length === 0) return 'No agents.\n';
  return renderTable(
    ['ID', 'NAME', 'PUBLIC IP', 'REGION', 'PROVISIONED', 'STATUS'],
    agents.map((a) => [
      a.id,
      a.name,
      a.agentPublicIp,
      a.gatewayRegion.replace(`${GATEWAY_REGION_PREFIX}_`, ''),
      a.provisioned ? 'yes' : 'no',
      a.serviceStatus.replace('SERVICE_STATUS_', ''),
    ]),
  );
}
