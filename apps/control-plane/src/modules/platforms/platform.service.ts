import { FailedPreconditionError, InvalidArgumentError, NotFoundError } from '@noderings/domain';

import type { Page, PageResult } from '../../http/pagination.js';
import type { AgentRepository } from '../agents/index.js';
import { parseEndpointUrl } from './endpoint-url.js';
import type { Platform, PlatformDriver } from './platform.js';
import type { PlatformChanges, PlatformFilter, PlatformRepository } from './platform.repository.js';
import { platformInUse } from './platform.errors.js';

export interface PlatformServiceDeps {
  readonly platforms: Pick<
    PlatformRepository,
    'list' | 'findById' | 'insert' | 'update' | 'assignAgent' | 'unassignAgent' | 'delete' | 'isInUse'
  >;
  readonly agents: Pick<AgentRepository, 'findById'>;
  readonly now: () => Date;
}

export class PlatformService {
  constructor(private readonly deps: PlatformServiceDeps) {}

  list(organizationId: string, filter: PlatformFilter, page: Page): Promise<PageResult<Platform>> {
    return this.deps.platforms.list(organizationId, filter, page);
  }

  async get(organizationId: string, id: string): Promise<Platform> {
    const platform = await this.deps.platforms.findById(organizationId, id);
    if (platform === undefined) throw NotFoundError.of('Platform', id);
    return platform;
  }

  async create(
    organizationId: string,
    input: { name: string; endpointUrl: string; driver: PlatformDriver; agentId?: string | undefined },
  ): Promise<Platform> {
    const endpointUrl = normalizedEndpoint(input.endpointUrl);
    const agentId = input.agentId ?? null;
    if (agentId !== null) await this.#requireAgent(organizationId, agentId);
    const id = await this.deps.platforms.insert(
      { organizationId, name: input.name, endpointUrl, driver: input.driver, agentId },
      this.deps.now(),
    );
    return this.get(organizationId, id);
  }

  async update(organizationId: string, id: string, changes: PlatformChanges): Promise<Platform> {
    const endpointUrl =
      changes.endpointUrl === undefined ? undefined : normalizedEndpoint(changes.endpointUrl);
    const updated = await this.deps.platforms.update(
      organizationId,
      id,
      {
        ...(changes.name !== undefined && { name: changes.name }),
        ...(endpointUrl !== undefined && { endpointUrl }),
      },
      this.deps.now(),
    );
    if (!updated) throw NotFoundError.of('Platform', id);
    return this.get(organizationId, id);
  }

  /** Links an agent of the same organisation; assigning the agent a platform already has changes nothing. */
  async assignAgent(organizationId: string, id: string, agentId: string): Promise<Platform> {
    await this.get(organizationId, id);
    await this.#requireAgent(organizationId, agentId);
    const assigned = await this.deps.platforms.assignAgent(organizationId, id, agentId, this.deps.now());
    const platform = await this.get(organizationId, id);
    if (!assigned) {
      throw new FailedPreconditionError(
        `The platform is assigned to agent ${platform.agentId ?? '(none)'}: unassign that agent first.`,
      );
    }
    return platform;
  }

  /** Unlinks the agent; a platform that has no agent any more is already where the caller wants it. */
  async unassignAgent(organizationId: string, id: string, agentId: string): Promise<Platform> {
    await this.get(organizationId, id);
    await this.#requireAgent(organizationId, agentId);
    await this.deps.platforms.unassignAgent(organizationId, id, agentId, this.deps.now());
    const platform = await this.get(organizationId, id);
    if (platform.agentId !== null) {
      throw new FailedPreconditionError(
        `The platform is assigned to agent ${platform.agentId}, not ${agentId}.`,
      );
    }
    return platform;
  }

  async delete(organizationId: string, id: string): Promise<void> {
    await this.get(organizationId, id);
    if (await this.deps.platforms.isInUse(id)) throw platformInUse();
    await this.deps.platforms.delete(organizationId, id);
  }

  /** Another organisation's agent is "not found", exactly like one that does not exist. */
  async #requireAgent(organizationId: string, agentId: string): Promise<void> {
    if ((await this.deps.agents.findById(organizationId, agentId)) === undefined) {
      throw NotFoundError.of('Agent', agentId);
    }
  }
}

function normalizedEndpoint(text: string): string {
  const parsed = parseEndpointUrl(text);
  if ('problem' in parsed) throw InvalidArgumentError.field('endpointUrl', parsed.problem);
  return parsed.url;
}
