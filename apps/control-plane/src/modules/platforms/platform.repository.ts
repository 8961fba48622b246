import { NotFoundError } from '@noderings/domain';

import type { Db } from '../../db/database.js';
import type { ServiceStatus } from '../../db/schema.js';
import { listPage } from '../../db/list-page.js';
import { translateViolations } from '../../db/postgres-error.js';
import type { Page, PageResult } from '../../http/pagination.js';
import { PLATFORM_DRIVERS, type Platform, type PlatformDriver } from './platform.js';
import { platformEndpointTaken, platformInUse } from './platform.errors.js';

export interface PlatformFilter {
  readonly serviceStatus?: ServiceStatus;
  /** Case-insensitive substring of the name or endpoint URL. */
  readonly search?: string;
}

export interface NewPlatform {
  readonly organizationId: string;
  readonly name: string;
  readonly endpointUrl: string;
  readonly driver: PlatformDriver;
  readonly agentId: string | null;
}

export interface PlatformChanges {
  readonly name?: string;
  readonly endpointUrl?: string;
}

/** The unique constraint PostgreSQL names after `UNIQUE (organization_id, endpoint_url)`. */
const PLATFORM_ENDPOINT_CONSTRAINT = 'platforms_organization_id_endpoint_url_key';

interface PlatformRow {
  id: string;
  organization_id: string;
  name: string;
  endpoint_url: string;
  driver: string;
  agent_id: string | null;
  agent_provisioned: boolean | null;
  service_status: ServiceStatus;
  created_at: Date;
  updated_at: Date;
}

function toPlatform(r: PlatformRow): Platform {
  const driver = PLATFORM_DRIVERS.find((d) => d === r.driver);
  if (driver === undefined) throw new Error(`platforms.driver holds an unknown value ${r.driver}`);
  return {
    id: r.id,
    organizationId: r.organization_id,
    name: r.name,
    endpointUrl: r.endpoint_url,
    driver,
    agentId: r.agent_id,
    agentProvisioned: r.agent_provisioned ?? false,
    serviceStatus: r.service_status,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Every query a caller can reach is scoped to one organisation: another tenant's platform is not found. */
export class PlatformRepository {
  constructor(private readonly db: Db) {}

  async list(organizationId: string, filter: PlatformFilter, page: Page): Promise<PageResult<Platform>> {
    let base = this.db.selectFrom('platforms as p').where('p.organization_id', '=', organizationId);
    if (filter.serviceStatus !== undefined) base = base.where('p.service_status', '=', filter.serviceStatus);
    const needle = filter.search?.trim().toLowerCase();
    if (needle !== undefined && needle !== '') {
      // strpos rather than LIKE, so `%` and `_` in a search are plain characters.
      base = base.where((eb) =>
        eb.or([
          eb(eb.fn('strpos', [eb.fn('lower', ['p.name']), eb.val(needle)]), '>', 0),
          eb(eb.fn('strpos', ['p.endpoint_url', eb.val(needle)]), '>', 0),
        ]),
      );
    }
    return listPage(
      base
        .leftJoin('agents as a', 'a.id', 'p.agent_id')
        .selectAll('p')
        .select('a.provisioned as agent_provisioned')
        .orderBy('p.created_at')
        .orderBy('p.id'),
      page,
      (rows) => rows.map(toPlatform),
    );
  }

  async findById(organizationId: string, id: string): Promise<Platform | undefined> {
    const row = await this.db
      .selectFrom('platforms as p')
      .leftJoin('agents as a', 'a.id', 'p.agent_id')
      .selectAll('p')
      .select('a.provisioned as agent_provisioned')
      .where('p.organization_id', '=', organizationId)
      .where('p.id', '=', id)
      .executeTakeFirst();
    return row && toPlatform(row);
  }

  /** The new platform's id. */
  async insert(input: NewPlatform, now: Date): Promise<string> {
    const { agentId } = input;
    const row = await translateViolations(
      this.db
        .insertInto('platforms')
        .values({
          organization_id: input.organizationId,
          name: input.name,
          endpoint_url: input.endpointUrl,
          driver: input.driver,
          agent_id: agentId,
          service_status: 'SERVICE_STATUS_OFFLINE',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
      {
        unique: { [PLATFORM_ENDPOINT_CONSTRAINT]: () => platformEndpointTaken(input.endpointUrl) },
        // The agent was deleted since the caller looked.
        foreignKey: agentId === null ? undefined : () => NotFoundError.of('Agent', agentId),
      },
    );
    return row.id;
  }

  /** False when the platform does not exist in this organisation. */
  async update(organizationId: string, id: string, changes: PlatformChanges, now: Date): Promise<boolean> {
    const { endpointUrl } = changes;
    const result = await translateViolations(
      this.db
        .updateTable('platforms')
        .set({
          ...(changes.name !== undefined && { name: changes.name }),
          ...(endpointUrl !== undefined && { endpoint_url: endpointUrl }),
          updated_at: now,
        })
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst(),
      {
        unique:
          endpointUrl === undefined
            ? undefined
            : { [PLATFORM_ENDPOINT_CONSTRAINT]: () => platformEndpointTaken(endpointUrl) },
      },
    );
    return result.numUpdatedRows > 0n;
  }

  /**
   * Links the agent unless the platform already has another one; one statement, so two concurrent
   * assigns of different agents cannot both win. False when nothing matched.
   */
  async assignAgent(organizationId: string, id: string, agentId: string, now: Date): Promise<boolean> {
    const result = await translateViolations(
      this.db
        .updateTable('platforms')
        .set({ agent_id: agentId, updated_at: now })
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .where((eb) => eb.or([eb('agent_id', 'is', null), eb('agent_id', '=', agentId)]))
        .executeTakeFirst(),
      { foreignKey: () => NotFoundError.of('Agent', agentId) },
    );
    return result.numUpdatedRows > 0n;
  }

  /** Unlinks the agent if it is still the platform's; false when nothing matched. */
  async unassignAgent(organizationId: string, id: string, agentId: string, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('platforms')
      .set({ agent_id: null, updated_at: now })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .where('agent_id', '=', agentId)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** False when the platform does not exist in this organisation. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const result = await translateViolations(
      this.db
        .deleteFrom('platforms')
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst(),
      {
        // A node added since the caller looked.
        foreignKey: platformInUse,
      },
    );
    return result.numDeletedRows > 0n;
  }

  async isInUse(id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('nodes')
      .select('id')
      .where('platform_id', '=', id)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }
}
