import type { Selectable } from 'kysely';

import type { Db } from '../../db/database.js';
import type { AgentTable, InboundPeeringState } from '../../db/schema.js';
import { listPage } from '../../db/list-page.js';
import { translateViolations } from '../../db/postgres-error.js';
import type { Page, PageResult } from '../../http/pagination.js';
import { agentInUse, agentNameTaken, gatewayPortsExhausted } from './agent.errors.js';
import {
  GATEWAY_REGIONS,
  HYPERVISOR_DRIVERS,
  type Agent,
  type GatewayRegion,
  type HypervisorDriver,
} from './agent.js';

export interface AgentFilter {
  readonly gatewayRegion?: GatewayRegion;
  /** Case-insensitive substring of the name or description. */
  readonly search?: string;
}

export interface NewAgent {
  readonly organizationId: string;
  readonly name: string;
  readonly description: string;
  readonly agentPublicIp: string;
  readonly gatewayRegion: GatewayRegion;
  readonly hypervisorDriver: HypervisorDriver;
}

export interface AgentChanges {
  readonly name?: string;
  readonly description?: string;
  readonly hypervisorDriver?: HypervisorDriver;
}

/** The result of checking an uploaded kubeconfig against the agent cluster. */
export interface PeeringOutcome {
  readonly state: Extract<
    InboundPeeringState,
    'INBOUND_PEERING_STATE_READY' | 'INBOUND_PEERING_STATE_FAILED'
  >;
  readonly error: string;
}

/** The columns every read returns: the sealed kubeconfig is read only by `findInboundKubeconfig`. */
const AGENT_COLUMNS = [
  'id',
  'organization_id',
  'name',
  'description',
  'agent_public_ip',
  'gateway_region',
  'hypervisor_driver',
  'gw_server_service_port',
  'provisioned',
  'inbound_peering_state',
  'inbound_peering_error',
  'service_status',
  'created_at',
  'updated_at',
] as const;

type AgentRow = Pick<Selectable<AgentTable>, (typeof AGENT_COLUMNS)[number]>;

/** The unique constraint PostgreSQL names after `UNIQUE (organization_id, name)`. */
const AGENT_NAME_CONSTRAINT = 'agents_organization_id_name_key';

function oneOf<T extends string>(allowed: readonly T[], value: string, column: string): T {
  const found = allowed.find((a) => a === value);
  if (found === undefined) throw new Error(`agents.${column} holds an unknown value ${value}`);
  return found;
}

function toAgent(r: AgentRow): Agent {
  return {
    id: r.id,
    organizationId: r.organization_id,
    name: r.name,
    description: r.description,
    agentPublicIp: r.agent_public_ip,
    gatewayRegion: oneOf(GATEWAY_REGIONS, r.gateway_region, 'gateway_region'),
    hypervisorDriver: oneOf(HYPERVISOR_DRIVERS, r.hypervisor_driver, 'hypervisor_driver'),
    gwServerServicePort: r.gw_server_service_port,
    provisioned: r.provisioned,
    inboundPeeringState: r.inbound_peering_state,
    inboundPeeringError: r.inbound_peering_error,
    serviceStatus: r.service_status,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Every query a caller can reach is scoped to one organisation: another tenant's agent is not found. */
export class AgentRepository {
  constructor(private readonly db: Db) {}

  async list(organizationId: string, filter: AgentFilter, page: Page): Promise<PageResult<Agent>> {
    let base = this.db.selectFrom('agents').where('organization_id', '=', organizationId);
    if (filter.gatewayRegion !== undefined) base = base.where('gateway_region', '=', filter.gatewayRegion);
    const needle = filter.search?.trim().toLowerCase();
    if (needle !== undefined && needle !== '') {
      // strpos rather than LIKE, so `%` and `_` in a search are plain characters.
      base = base.where((eb) =>
        eb.or([
          eb(eb.fn('strpos', [eb.fn('lower', ['name']), eb.val(needle)]), '>', 0),
          eb(eb.fn('strpos', [eb.fn('lower', ['description']), eb.val(needle)]), '>', 0),
        ]),
      );
    }
    return listPage(base.select(AGENT_COLUMNS).orderBy('created_at').orderBy('id'), page, (rows) =>
      rows.map(toAgent),
    );
  }

  /** When the newest metrics sample of each agent's platforms was taken; agents with none are absent. */
  async metricsReceivedAt(agentIds: readonly string[]): Promise<Map<string, Date>> {
    if (agentIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('platform_metric_hosts as h')
      .innerJoin('platforms as p', 'p.id', 'h.platform_id')
      .select((eb) => ['p.agent_id', eb.fn.max('h.sampled_at').as('sampled_at')])
      .where('p.agent_id', 'in', agentIds)
      .groupBy('p.agent_id')
      .execute();
    return new Map(
      rows.flatMap((r) => (r.agent_id === null ? [] : [[r.agent_id, new Date(r.sampled_at)] as const])),
    );
  }

  async findById(organizationId: string, id: string): Promise<Agent | undefined> {
    const row = await this.db
      .selectFrom('agents')
      .select(AGENT_COLUMNS)
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toAgent(row);
  }

  /** The gateway port comes from the `agent_gateway_port` sequence, the column's default. */
  async insert(input: NewAgent, now: Date): Promise<Agent> {
    const row = await translateViolations(
      this.db
        .insertInto('agents')
        .values({
          organization_id: input.organizationId,
          name: input.name,
          description: input.description,
          agent_public_ip: input.agentPublicIp,
          gateway_region: input.gatewayRegion,
          hypervisor_driver: input.hypervisorDriver,
          inbound_peering_state: 'INBOUND_PEERING_STATE_PENDING',
          service_status: 'SERVICE_STATUS_OFFLINE',
          created_at: now,
          updated_at: now,
        })
        .returning(AGENT_COLUMNS)
        .executeTakeFirstOrThrow(),
      {
        unique: { [AGENT_NAME_CONSTRAINT]: () => agentNameTaken(input.name) },
        sequenceExhausted: gatewayPortsExhausted,
      },
    );
    return toAgent(row);
  }

  async update(
    organizationId: string,
    id: string,
    changes: AgentChanges,
    now: Date,
  ): Promise<Agent | undefined> {
    const { name } = changes;
    const row = await translateViolations(
      this.db
        .updateTable('agents')
        .set({
          ...(name !== undefined && { name }),
          ...(changes.description !== undefined && { description: changes.description }),
          ...(changes.hypervisorDriver !== undefined && { hypervisor_driver: changes.hypervisorDriver }),
          updated_at: now,
        })
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .returning(AGENT_COLUMNS)
        .executeTakeFirst(),
      { unique: name === undefined ? undefined : { [AGENT_NAME_CONSTRAINT]: () => agentNameTaken(name) } },
    );
    return row && toAgent(row);
  }

  /** False when the agent does not exist in this organisation. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const result = await translateViolations(
      this.db
        .deleteFrom('agents')
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst(),
      // A platform assigned since the caller looked.
      { foreignKey: agentInUse },
    );
    return result.numDeletedRows > 0n;
  }

  /** Whether a platform still runs its orders through this agent. */
  async isInUse(id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('platforms')
      .select('id')
      .where('agent_id', '=', id)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Stores a newly uploaded kubeconfig and marks the check as running. The agent is not provisioned
   * until the new kubeconfig has been shown to work: the old one is gone.
   */
  async startPeering(
    organizationId: string,
    id: string,
    sealedKubeconfig: string,
    now: Date,
  ): Promise<Agent | undefined> {
    const row = await this.db
      .updateTable('agents')
      .set({
        inbound_kubeconfig_ciphertext: sealedKubeconfig,
        inbound_peering_state: 'INBOUND_PEERING_STATE_PEERING',
        inbound_peering_error: '',
        provisioned: false,
        updated_at: now,
      })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .returning(AGENT_COLUMNS)
      .executeTakeFirst();
    return row && toAgent(row);
  }

  /**
   * Records a check's outcome, unless another upload has replaced the kubeconfig meanwhile (its own
   * check decides then). Undefined when the outcome was not recorded.
   */
  async finishPeering(
    id: string,
    sealedKubeconfig: string,
    outcome: PeeringOutcome,
    now: Date,
  ): Promise<Agent | undefined> {
    const row = await this.db
      .updateTable('agents')
      .set({
        inbound_peering_state: outcome.state,
        inbound_peering_error: outcome.error,
        provisioned: outcome.state === 'INBOUND_PEERING_STATE_READY',
        updated_at: now,
      })
      .where('id', '=', id)
      .where('inbound_kubeconfig_ciphertext', '=', sealedKubeconfig)
      .returning(AGENT_COLUMNS)
      .executeTakeFirst();
    return row && toAgent(row);
  }

  /** The sealed kubeconfig of an agent in any organisation: for internal callers, never a route. */
  async findInboundKubeconfig(id: string): Promise<string | null | undefined> {
    const row = await this.db
      .selectFrom('agents')
      .select('inbound_kubeconfig_ciphertext')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.inbound_kubeconfig_ciphertext;
  }
}
