import { collectorStatusSchema, type AgentType, type CollectorStatus } from '@noderings/fleet';
import type { Transaction } from 'kysely';
import { z } from 'zod';

import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import { isTransactionConflict, isUniqueViolation } from '../../db/postgres-error.js';
import type { Database } from '../../db/schema.js';
import type { Page, PageResult } from '../../http/pagination.js';
import type { EnrollmentDecision } from './enrollment-decision.js';

type Tx = Transaction<Database>;

export interface FleetAgentRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly environmentId: string;
  readonly agentType: AgentType;
  readonly name: string;
  readonly publicKey: string;
  readonly keyBoundAt: Date;
  readonly reboundAt: Date | null;
  readonly version: string;
  readonly hostname: string;
  readonly machineId: string | null;
  readonly systemUuid: string | null;
  readonly heartbeatIntervalSeconds: number;
  readonly collectors: CollectorStatus[];
  readonly lastSeenAt: Date | null;
  readonly enrolledAt: Date;
  readonly releasedAt: Date | null;
}

/** An agent record with the keys it was bound to before, for the credentials call. */
export interface CredentialHolder {
  readonly agent: FleetAgentRecord;
  readonly retiredKeys: readonly { readonly publicKey: string; readonly retiredAt: Date }[];
}

export interface EnrollmentInput {
  readonly organizationId: string;
  readonly environmentId: string;
  readonly installTokenId: string;
  readonly agentType: AgentType;
  readonly name: string;
  readonly publicKey: string;
  readonly version: string;
  readonly machineId: string | undefined;
  readonly systemUuid: string | undefined;
  readonly heartbeatIntervalSeconds: number;
  readonly now: Date;
}

export type EnrollmentOutcome =
  | { readonly kind: 'created' | 'same-key' | 'rebound'; readonly agent: FleetAgentRecord }
  | {
      readonly kind: 'in-use';
      readonly agent: FleetAgentRecord;
      readonly decision: Extract<EnrollmentDecision, { kind: 'in-use' }>;
    }
  /** The key is already bound to another live record (another name or type). */
  | { readonly kind: 'key-in-use'; readonly agentId: string };

const COLUMNS = [
  'id',
  'organization_id',
  'environment_id',
  'agent_type',
  'name',
  'public_key',
  'key_bound_at',
  'rebound_at',
  'version',
  'hostname',
  'machine_id',
  'system_uuid',
  'heartbeat_interval_seconds',
  'collectors',
  'last_seen_at',
  'enrolled_at',
  'released_at',
] as const;

const storedCollectors = z.array(collectorStatusSchema).catch([]);

interface Row {
  id: string;
  organization_id: string;
  environment_id: string;
  agent_type: AgentType;
  name: string;
  public_key: string;
  key_bound_at: Date;
  rebound_at: Date | null;
  version: string;
  hostname: string;
  machine_id: string | null;
  system_uuid: string | null;
  heartbeat_interval_seconds: number;
  collectors: unknown[];
  last_seen_at: Date | null;
  enrolled_at: Date;
  released_at: Date | null;
}

function toRecord(r: Row): FleetAgentRecord {
  return {
    id: r.id,
    organizationId: r.organization_id,
    environmentId: r.environment_id,
    agentType: r.agent_type,
    name: r.name,
    publicKey: r.public_key,
    keyBoundAt: r.key_bound_at,
    reboundAt: r.rebound_at,
    version: r.version,
    hostname: r.hostname,
    machineId: r.machine_id,
    systemUuid: r.system_uuid,
    heartbeatIntervalSeconds: r.heartbeat_interval_seconds,
    collectors: storedCollectors.parse(r.collectors),
    lastSeenAt: r.last_seen_at,
    enrolledAt: r.enrolled_at,
    releasedAt: r.released_at,
  };
}

/** How many times an enrollment looks again when the record it collided with was released meanwhile. */
const ENROLL_ATTEMPTS = 3;

/** Fleet agent records: enrollment, re-binding, release and the reads of the API. */
export class FleetAgentRepository {
  constructor(private readonly db: Db) {}

  /**
   * Enrolls in one transaction: inserts a record unless a live one holds the (environment, type, name)
   * (the partial unique index makes concurrent enrollments meet here), else locks that record and lets
   * `decide` say whether the caller is its holder, takes it over, or is refused.
   */
  async enroll(
    input: EnrollmentInput,
    decide: (held: FleetAgentRecord) => EnrollmentDecision,
  ): Promise<EnrollmentOutcome> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#enrollOnce(input, decide);
      } catch (e: unknown) {
        // Concurrent enrollments of one key: only the name index arbitrates the insert, so the loser can
        // hit the live-key index instead (or a deadlock). Once the winner has committed, a retry finds
        // its row and answers as for a repeated enrollment.
        if (attempt >= ENROLL_ATTEMPTS || !(isUniqueViolation(e) || isTransactionConflict(e))) throw e;
      }
    }
  }

  #enrollOnce(
    input: EnrollmentInput,
    decide: (held: FleetAgentRecord) => EnrollmentDecision,
  ): Promise<EnrollmentOutcome> {
    return this.db.transaction().execute(async (tx) => {
      const keyHolder = await tx
        .selectFrom('fleet_agents')
        .select(['id', 'environment_id', 'agent_type', 'name'])
        .where('public_key', '=', input.publicKey)
        .where('released_at', 'is', null)
        .executeTakeFirst();
      if (
        keyHolder !== undefined &&
        (keyHolder.environment_id !== input.environmentId ||
          keyHolder.agent_type !== input.agentType ||
          keyHolder.name !== input.name)
      )
        return { kind: 'key-in-use', agentId: keyHolder.id };
      for (let attempt = 1; ; attempt++) {
        const created = await insertRecord(tx, input);
        if (created !== undefined) return { kind: 'created', agent: toRecord(created) };
        const held = await tx
          .selectFrom('fleet_agents')
          .select(COLUMNS)
          .where('environment_id', '=', input.environmentId)
          .where('agent_type', '=', input.agentType)
          .where('name', '=', input.name)
          .where('released_at', 'is', null)
          .forUpdate()
          .executeTakeFirst();
        if (held !== undefined) return applyDecision(tx, input, toRecord(held), decide);
        if (attempt === ENROLL_ATTEMPTS) throw new Error('enrollment kept colliding with released records');
      }
    });
  }

  async get(organizationId: string, id: string): Promise<FleetAgentRecord | undefined> {
    const row = await this.db
      .selectFrom('fleet_agents')
      .select(COLUMNS)
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  list(
    organizationId: string,
    filter: { environmentId?: string | undefined; includeReleased: boolean },
    page: Page,
  ): Promise<PageResult<FleetAgentRecord>> {
    let query = this.db
      .selectFrom('fleet_agents')
      .select(COLUMNS)
      .where('organization_id', '=', organizationId)
      .orderBy('environment_id')
      .orderBy('agent_type')
      .orderBy('name')
      .orderBy('enrolled_at')
      .orderBy('id');
    if (filter.environmentId !== undefined) query = query.where('environment_id', '=', filter.environmentId);
    if (!filter.includeReleased) query = query.where('released_at', 'is', null);
    return listPage(query, page, (rows) => rows.map(toRecord));
  }

  /** Releases a live record; a released one is answered as it is. Undefined when not the organisation's. */
  async release(organizationId: string, id: string, now: Date): Promise<FleetAgentRecord | undefined> {
    const released = await this.db
      .updateTable('fleet_agents')
      .set({ released_at: now })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .where('released_at', 'is', null)
      .returning(COLUMNS)
      .executeTakeFirst();
    return released === undefined ? this.get(organizationId, id) : toRecord(released);
  }

  /** Any organisation's record: the caller proves who it is by signing with the record's key. */
  async credentialHolder(agentId: string): Promise<CredentialHolder | undefined> {
    const row = await this.db
      .selectFrom('fleet_agents')
      .select(COLUMNS)
      .where('id', '=', agentId)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const retired = await this.db
      .selectFrom('fleet_agent_retired_keys')
      .select(['public_key', 'retired_at'])
      .where('agent_id', '=', agentId)
      .execute();
    return {
      agent: toRecord(row),
      retiredKeys: retired.map((r) => ({ publicKey: r.public_key, retiredAt: r.retired_at })),
    };
  }
}

async function insertRecord(tx: Tx, input: EnrollmentInput): Promise<Row | undefined> {
  return tx
    .insertInto('fleet_agents')
    .values({
      organization_id: input.organizationId,
      environment_id: input.environmentId,
      agent_type: input.agentType,
      name: input.name,
      public_key: input.publicKey,
      key_bound_at: input.now,
      install_token_id: input.installTokenId,
      version: input.version,
      hostname: input.name,
      machine_id: input.machineId ?? null,
      system_uuid: input.systemUuid ?? null,
      heartbeat_interval_seconds: input.heartbeatIntervalSeconds,
      enrolled_at: input.now,
    })
    .onConflict((oc) =>
      oc.columns(['environment_id', 'agent_type', 'name']).where('released_at', 'is', null).doNothing(),
    )
    .returning(COLUMNS)
    .executeTakeFirst();
}

async function applyDecision(
  tx: Tx,
  input: EnrollmentInput,
  held: FleetAgentRecord,
  decide: (held: FleetAgentRecord) => EnrollmentDecision,
): Promise<EnrollmentOutcome> {
  const decision = decide(held);
  if (decision.kind === 'in-use') return { kind: 'in-use', agent: held, decision };
  // Signals the caller did not present keep their stored value.
  const signals = {
    version: input.version,
    machine_id: input.machineId ?? held.machineId,
    system_uuid: input.systemUuid ?? held.systemUuid,
  };
  if (decision.kind === 'rebind') {
    await tx
      .insertInto('fleet_agent_retired_keys')
      .values({ agent_id: held.id, public_key: held.publicKey, retired_at: input.now })
      .onConflict((oc) => oc.columns(['agent_id', 'public_key']).doUpdateSet({ retired_at: input.now }))
      .execute();
    // A key that held the record before and takes it back is current again, not retired.
    await tx
      .deleteFrom('fleet_agent_retired_keys')
      .where('agent_id', '=', held.id)
      .where('public_key', '=', input.publicKey)
      .execute();
  }
  const updated = await tx
    .updateTable('fleet_agents')
    .set(
      decision.kind === 'rebind'
        ? {
            ...signals,
            public_key: input.publicKey,
            key_bound_at: input.now,
            rebound_at: input.now,
            install_token_id: input.installTokenId,
          }
        : signals,
    )
    .where('id', '=', held.id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return { kind: decision.kind === 'rebind' ? 'rebound' : 'same-key', agent: toRecord(updated) };
}
