import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import type { MemberRole, OrganizationType } from '../../db/schema.js';
import type { Page, PageResult } from '../../http/pagination.js';

export interface Organization {
  readonly id: string;
  readonly name: string;
  readonly type: OrganizationType;
  readonly isVerified: boolean;
  readonly verifiedAt: Date | null;
  readonly createdAt: Date;
}

export interface Membership {
  readonly organizationId: string;
  readonly userId: string;
  readonly email: string;
  readonly role: MemberRole;
  readonly createdAt: Date;
}

/** A membership joined with its organisation: what tenant resolution needs. */
export interface MembershipWithOrganization {
  readonly organization: Organization;
  readonly role: MemberRole;
}

interface OrganizationRow {
  id: string;
  name: string;
  type: OrganizationType;
  is_verified: boolean;
  verified_at: Date | null;
  created_at: Date;
}

function toOrganization(row: OrganizationRow): Organization {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    isVerified: row.is_verified,
    verifiedAt: row.verified_at,
    createdAt: row.created_at,
  };
}

export class OrganizationRepository {
  constructor(private readonly db: Db) {}

  async findById(id: string): Promise<Organization | undefined> {
    const row = await this.db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toOrganization(row);
  }

  /** The user's membership in `organizationId`, or in their oldest organisation when none is named. */
  async findMembership(
    userId: string,
    organizationId: string | undefined,
  ): Promise<MembershipWithOrganization | undefined> {
    let query = this.db
      .selectFrom('memberships as m')
      .innerJoin('organizations as o', 'o.id', 'm.organization_id')
      .select(['o.id', 'o.name', 'o.type', 'o.is_verified', 'o.verified_at', 'o.created_at', 'm.role'])
      .where('m.user_id', '=', userId);
    query =
      organizationId === undefined
        ? query.orderBy('m.created_at').orderBy('o.id').limit(1)
        : query.where('o.id', '=', organizationId);
    const row = await query.executeTakeFirst();
    return row && { organization: toOrganization(row), role: row.role };
  }

  async listForUser(userId: string): Promise<MembershipWithOrganization[]> {
    const rows = await this.db
      .selectFrom('memberships as m')
      .innerJoin('organizations as o', 'o.id', 'm.organization_id')
      .select(['o.id', 'o.name', 'o.type', 'o.is_verified', 'o.verified_at', 'o.created_at', 'm.role'])
      .where('m.user_id', '=', userId)
      .orderBy('m.created_at')
      .orderBy('o.id')
      .execute();
    return rows.map((row) => ({ organization: toOrganization(row), role: row.role }));
  }

  /** A new organisation with `ownerId` as its owner, in one transaction. */
  async createWithOwner(input: {
    name: string;
    type: OrganizationType;
    ownerId: string;
  }): Promise<Organization> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx
        .insertInto('organizations')
        .values({ name: input.name, type: input.type })
        .returningAll()
        .executeTakeFirstOrThrow();
      await tx
        .insertInto('memberships')
        .values({ organization_id: row.id, user_id: input.ownerId, role: 'owner' })
        .execute();
      return toOrganization(row);
    });
  }

  async rename(id: string, name: string): Promise<Organization | undefined> {
    const row = await this.db
      .updateTable('organizations')
      .set({ name })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toOrganization(row);
  }

  async markVerified(id: string, at: Date): Promise<Organization | undefined> {
    const row = await this.db
      .updateTable('organizations')
      .set({ is_verified: true, verified_at: at })
      .where('id', '=', id)
      .where('type', '=', 'ORGANIZATION_TYPE_PROVIDER')
      .returningAll()
      .executeTakeFirst();
    return row && toOrganization(row);
  }

  async listAll(
    filter: { type?: OrganizationType; isVerified?: boolean },
    page: Page,
  ): Promise<PageResult<Organization>> {
    let base = this.db.selectFrom('organizations');
    if (filter.type !== undefined) base = base.where('type', '=', filter.type);
    if (filter.isVerified !== undefined) base = base.where('is_verified', '=', filter.isVerified);
    return listPage(base.selectAll().orderBy('created_at').orderBy('id'), page, (rows) =>
      rows.map(toOrganization),
    );
  }

  async listMembers(organizationId: string): Promise<Membership[]> {
    const rows = await this.db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.organization_id', 'm.user_id', 'u.email', 'm.role', 'm.created_at'])
      .where('m.organization_id', '=', organizationId)
      .orderBy('m.created_at')
      .execute();
    return rows.map((r) => ({
      organizationId: r.organization_id,
      userId: r.user_id,
      email: r.email,
      role: r.role,
      createdAt: r.created_at,
    }));
  }

  async setMemberRole(input: { organizationId: string; userId: string; role: MemberRole }): Promise<boolean> {
    const result = await this.db
      .updateTable('memberships')
      .set({ role: input.role })
      .where('organization_id', '=', input.organizationId)
      .where('user_id', '=', input.userId)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async removeMember(organizationId: string, userId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('memberships')
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async countOwners(organizationId: string): Promise<number> {
    const row = await this.db
      .selectFrom('memberships')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('organization_id', '=', organizationId)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
