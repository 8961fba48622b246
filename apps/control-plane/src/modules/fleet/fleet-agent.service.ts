import { NotFoundError } from '@noderings/domain';

import type { Page, PageResult } from '../../http/pagination.js';
import type { FleetAgentRecord, FleetAgentRepository } from './fleet-agent.repository.js';
import type { FleetEnvironmentRepository } from './fleet-environment.repository.js';

type AgentStatus = 'online' | 'stale' | 'never_seen' | 'released';

/** An agent is online while heard from within this many of its heartbeat intervals. */
const MISSED_HEARTBEATS = 3;

export interface FleetAgent extends FleetAgentRecord {
  readonly status: AgentStatus;
}

function statusOf(agent: FleetAgentRecord, now: Date): AgentStatus {
  if (agent.releasedAt !== null) return 'released';
  if (agent.lastSeenAt === null) return 'never_seen';
  const silentMs = now.getTime() - agent.lastSeenAt.getTime();
  return silentMs <= MISSED_HEARTBEATS * agent.heartbeatIntervalSeconds * 1000 ? 'online' : 'stale';
}

/** What a provider sees of its node agents, and releasing an identity so its name can be enrolled afresh. */
export class FleetAgentService {
  constructor(
    private readonly deps: {
      readonly agents: Pick<FleetAgentRepository, 'get' | 'list' | 'release'>;
      readonly environments: Pick<FleetEnvironmentRepository, 'get'>;
      readonly now: () => Date;
    },
  ) {}

  async get(organizationId: string, id: string): Promise<FleetAgent> {
    const agent = await this.deps.agents.get(organizationId, id);
    if (agent === undefined) throw NotFoundError.of('Agent', id);
    return { ...agent, status: statusOf(agent, this.deps.now()) };
  }

  async list(
    organizationId: string,
    filter: { environmentId?: string | undefined; includeReleased: boolean },
    page: Page,
  ): Promise<PageResult<FleetAgent>> {
    if (
      filter.environmentId !== undefined &&
      (await this.deps.environments.get(organizationId, filter.environmentId)) === undefined
    )
      throw NotFoundError.of('Environment', filter.environmentId);
    const result = await this.deps.agents.list(organizationId, filter, page);
    const now = this.deps.now();
    return { ...result, items: result.items.map((a) => ({ ...a, status: statusOf(a, now) })) };
  }

  /**
   * Releases the record: kept for history, its name free for a new enrollment, its key no longer
   * accepted for messages or credentials. Releasing a released record changes nothing.
   */
  async release(organizationId: string, id: string): Promise<FleetAgent> {
    const agent = await this.deps.agents.release(organizationId, id, this.deps.now());
    if (agent === undefined) throw NotFoundError.of('Agent', id);
    return { ...agent, status: statusOf(agent, this.deps.now()) };
  }
}
