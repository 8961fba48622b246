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
  readonly createdAt: Date;
}

export type NewAuditEvent = Omit<AuditEvent, 'id' | 'createdAt'>;

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
      })
      .execute();
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
        createdAt: r.created_at,
      })),
    );
  }
}
