import {
  AlreadyExistsError,
  FailedPreconditionError,
  InvalidArgumentError,
  NotFoundError,
} from '@noderings/domain';

import { isForeignKeyViolation, isUniqueViolation } from '../../db/postgres-error.js';
import type { Page, PageResult } from '../../http/pagination.js';
import type { AgentRepository } from '../agents/index.js';
import { parseEndpointUrl } from './endpoint-url.js';
import type { Platform, PlatformDriver } from './platform.js';
import {
  PLATFORM_ENDPOINT_CONSTRAINT,
  type PlatformChanges,
  type PlatformFilter,
  type PlatformRepository,
} from './platform.repository.js';

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
    let id: string;
    try {
      id = await this.deps.platforms.insert(
        { organizationId, name: input.name, endpointUrl, driver: input.driver, agentId },
        this.deps.now(),
      );
    } catch (e: unknown) {
      if (isUniqueViolation(e, PLATFORM_ENDPOINT_CONSTRAINT)) throw endpointTaken(endpointUrl);
      // The agent was deleted between the check and the insert.
      if (agentId !== null && isForeignKeyViolation(e)) throw NotFoundError.of('Agent', agentId);
      throw e;
    }
    return this.get(organizationId, id);
  }

  async update(organizationId: string, id: string, changes: PlatformChanges): Promise<Platform> {
    const endpointUrl =
      changes.endpointUrl === undefined ? undefined : normalizedEndpoint(changes.endpointUrl);
    let updated: boolean;
    try {
      updated = await this.deps.platforms.update(
        organizationId,
        id,
        {
          ...(changes.name !== undefined && { name: changes.name }),
          ...(endpointUrl !== undefined && { endpointUrl }),
        },
        this.deps.now(),
      );
    } catch (e: unknown) {
      if (endpointUrl !== undefined && isUniqueViolation(e, PLATFORM_ENDPOINT_CONSTRAINT)) {
        throw endpointTaken(endpointUrl);
      }
      throw e;
    }
    if (!updated) throw NotFoundError.of('Platform', id);
    return this.get(organizationId, id);
  }

  /** Links an agent of the same organisation; assigning the agent a platform already has changes nothing. */
  async assignAgent(organizationId: string, id: string, agentId: string): Promise<Platform> {
    await this.get(organizationId, id);
    await this.#requireAgent(organizationId, agentId);
    let assigned: boolean;
    try {
      assigned = await this.deps.platforms.assignAgent(organizationId, id, agentId, this.deps.now());
    } catch (e: unknown) {
      if (isForeignKeyViolation(e)) throw NotFoundError.of('Agent', agentId);
      throw e;
    }
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
    try {
      await this.deps.platforms.delete(organizationId, id);
    } catch (e: unknown) {
      // A node added between the check and the delete.
      if (isForeignKeyViolation(e)) throw platformInUse();
      throw e;
    }
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

function endpointTaken(endpointUrl: string): AlreadyExistsError {
  return new AlreadyExistsError(`The endpoint ${endpointUrl} is already registered in this organization.`);
}

function platformInUse(): FailedPreconditionError {
  return new FailedPreconditionError('The platform still has nodes: delete them first.');
}
