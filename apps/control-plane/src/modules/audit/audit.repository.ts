import { sql } from 'kysely';

import type { Db } from '../../db/database.js';
import type { AuditEventTable } from '../../db/schema.js';
import { listPage } from '../../db/list-page.js';
import type { Page, PageResult } from '../../http/pagination.js';

export interface AuditEvent {
  readonly id: string;
  readonly organizationId: string | null;
  readonly actorKind: AuditEventTable['actor_kind'];
  readonly actorId: string | null;
  readonly action: string;
  readonly targetType: string | null;
  readonly targetId: string | null;
  readonly statusCode: number;
  readonly requestId: string;
  readonly ip: string;
  /** The actor's organisation when it is not this log's: someone of another organisation named one of ours. */
  readonly actorOrganizationId: string | null;
  /** `DELETE /v1/secrets/{id}`. */
  readonly route: string | null;
  readonly createdAt: Date;
}

/** `actorOrganizationId` and `route` may be left out (null). */
export type NewAuditEvent = Omit<AuditEvent, 'id' | 'createdAt' | 'actorOrganizationId' | 'route'> &
  Partial<Pick<AuditEvent, 'actorOrganizationId' | 'route'>>;

/** An object found by its id, and the organisation it belongs to. */
export interface OwnedObject {
  readonly kind: string;
  readonly id: string;
  readonly organizationId: string;
}

export class AuditRepository {
  constructor(private readonly db: Db) {}

  async insert(event: NewAuditEvent): Promise<void> {
    await this.db
      .insertInto('audit_events')
      .values({
        organization_id: event.organizationId,
        actor_kind: event.actorKind,
        actor_id: event.actorId,
        action: event.action,
        target_type: event.targetType,
        target_id: event.targetId,
        status_code: event.statusCode,
        request_id: event.requestId,
        ip: event.ip,
        actor_organization_id: event.actorOrganizationId ?? null,
        route: event.route ?? null,
      })
      .execute();
  }

  /**
   * Which organisations hold objects with these ids, over every tenant table, in one round trip of
   * primary-key probes: ids that exist nowhere cost an index miss each and find nothing.
   */
  async ownersOf(
    ids: readonly string[],
    tables: readonly { table: string; kind: string; organizationColumns: readonly string[] }[],
  ): Promise<OwnedObject[]> {
    if (ids.length === 0) return [];
    const probes = tables.flatMap((t) =>
      t.organizationColumns.map(
        (column) =>
          sql<{ kind: string; id: string; organization_id: string | null }>`SELECT ${t.kind}::text AS kind,
            id::text AS id, ${sql.ref(column)}::text AS organization_id
            FROM ${sql.table(t.table)} WHERE id IN (${sql.join(ids)})`,
      ),
    );
    const result = await sql<{ kind: string; id: string; organization_id: string | null }>`${sql.join(
      probes,
      sql` UNION ALL `,
    )}`.execute(this.db);
    return result.rows.flatMap((r) =>
      r.organization_id === null ? [] : [{ kind: r.kind, id: r.id, organizationId: r.organization_id }],
    );
  }

  /** Those of `organizationIds` that the user is a member of. */
  async membershipsAmong(userId: string, organizationIds: readonly string[]): Promise<Set<string>> {
    if (organizationIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('memberships')
      .select('organization_id')
      .where('user_id', '=', userId)
      .where('organization_id', 'in', organizationIds)
      .execute();
    return new Set(rows.map((r) => r.organization_id));
  }

  async list(
    organizationId: string,
    filter: { action?: string | undefined },
    page: Page,
  ): Promise<PageResult<AuditEvent>> {
    let base = this.db.selectFrom('audit_events').where('organization_id', '=', organizationId);
    if (filter.action !== undefined) base = base.where('action', '=', filter.action);
    return listPage(base.selectAll().orderBy('id', 'desc'), page, (rows) =>
      rows.map((r) => ({
        id: String(r.id),
        organizationId: r.organization_id,
        actorKind: r.actor_kind,
        actorId: r.actor_id,
        action: r.action,
        targetType: r.target_type,
        targetId: r.target_id,
        statusCode: r.status_code,
        requestId: r.request_id,
        ip: r.ip,
        actorOrganizationId: r.actor_organization_id,
        route: r.route,
        createdAt: r.created_at,
      })),
    );
  }
}
