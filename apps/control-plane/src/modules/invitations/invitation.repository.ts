import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import { isUniqueViolation } from '../../db/postgres-error.js';
import type { MemberRole, OrganizationType } from '../../db/schema.js';
import type { Page, PageResult } from '../../http/pagination.js';

interface NewInvitation {
  readonly organizationId: string;
  readonly email: string;
  readonly role: MemberRole;
  readonly tokenHash: Buffer;
  readonly invitedBy: string;
  readonly now: Date;
  readonly expiresAt: Date;
}

export type InvitationState = 'pending' | 'accepted' | 'declined' | 'revoked' | 'expired';

export interface Invitation {
  readonly id: string;
  readonly organizationId: string;
  readonly email: string;
  readonly role: MemberRole;
  readonly invitedByEmail: string | null;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly acceptedAt: Date | null;
  readonly declinedAt: Date | null;
  readonly revokedAt: Date | null;
}

/** An invitation as its invitee sees it: with the organisation it is to. */
export interface ReceivedInvitation extends Invitation {
  readonly organization: { readonly id: string; readonly name: string; readonly type: OrganizationType };
}

export function stateOf(invitation: Invitation, now: Date): InvitationState {
  if (invitation.acceptedAt !== null) return 'accepted';
  if (invitation.declinedAt !== null) return 'declined';
  if (invitation.revokedAt !== null) return 'revoked';
  return invitation.expiresAt.getTime() <= now.getTime() ? 'expired' : 'pending';
}

export class InvitationRepository {
  constructor(private readonly db: Db) {}

  #invitations() {
    return this.db
      .selectFrom('invitations as i')
      .leftJoin('users as by', 'by.id', 'i.invited_by')
      .innerJoin('organizations as o', 'o.id', 'i.organization_id')
      .select([
        'i.id',
        'i.organization_id',
        'i.email',
        'i.role',
        'by.email as invited_by_email',
        'i.created_at',
        'i.expires_at',
        'i.accepted_at',
        'i.declined_at',
        'i.revoked_at',
        'o.name as organization_name',
        'o.type as organization_type',
      ]);
  }

  /** A new open invitation; an open one to the same email is revoked first (inviting again replaces it). */
  async insert(input: NewInvitation): Promise<Invitation> {
    let id: string;
    try {
      id = await this.#replaceOpen(input);
    } catch (e: unknown) {
      // Two invitations to one address at once: the other is in; replace it as a later one would.
      if (!isUniqueViolation(e)) throw e;
      id = await this.#replaceOpen(input);
    }
    const created = await this.findInOrganization(input.organizationId, id);
    if (created === undefined) throw new Error(`invitation ${id} vanished after its insert`);
    return created;
  }

  /** The new invitation's id. */
  #replaceOpen(input: NewInvitation): Promise<string> {
    return this.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('invitations')
        .set({ revoked_at: input.now })
        .where('organization_id', '=', input.organizationId)
        .where('email', '=', input.email)
        .where('accepted_at', 'is', null)
        .where('declined_at', 'is', null)
        .where('revoked_at', 'is', null)
        .execute();
      const row = await tx
        .insertInto('invitations')
        .values({
          organization_id: input.organizationId,
          email: input.email,
          role: input.role,
          token_hash: input.tokenHash,
          invited_by: input.invitedBy,
          created_at: input.now,
          expires_at: input.expiresAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
  }

  async findInOrganization(organizationId: string, id: string): Promise<Invitation | undefined> {
    const row = await this.#invitations()
      .where('i.organization_id', '=', organizationId)
      .where('i.id', '=', id)
      .executeTakeFirst();
    return row && toReceived(row);
  }

  async listForOrganization(organizationId: string, page: Page): Promise<PageResult<Invitation>> {
    return listPage(
      this.#invitations()
        .where('i.organization_id', '=', organizationId)
        .orderBy('i.created_at', 'desc')
        .orderBy('i.id'),
      page,
      (rows) => rows.map(toReceived),
    );
  }

  /** The invitation `id` when it is addressed to `email`; another's invitation is not found. */
  async findForInvitee(email: string, id: string): Promise<ReceivedInvitation | undefined> {
    const row = await this.#invitations()
      .where('i.email', '=', email)
      .where('i.id', '=', id)
      .executeTakeFirst();
    return row && toReceived(row);
  }

  /** Open invitations to `email` that have not expired. */
  async listOpenForInvitee(email: string, now: Date): Promise<ReceivedInvitation[]> {
    const rows = await this.#invitations()
      .where('i.email', '=', email)
      .where('i.accepted_at', 'is', null)
      .where('i.declined_at', 'is', null)
      .where('i.revoked_at', 'is', null)
      .where('i.expires_at', '>', now)
      .orderBy('i.created_at', 'desc')
      .orderBy('i.id')
      .execute();
    return rows.map(toReceived);
  }

  /**
   * Accepts an open, unexpired invitation and makes the user a member with its role, in one transaction
   * (a member already keeps the role they have). False when it was no longer open.
   */
  async accept(input: { id: string; userId: string; now: Date }): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const accepted = await tx
        .updateTable('invitations')
        .set({ accepted_at: input.now, accepted_by: input.userId })
        .where('id', '=', input.id)
        .where('accepted_at', 'is', null)
        .where('declined_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', input.now)
        .returning(['organization_id', 'role'])
        .executeTakeFirst();
      if (accepted === undefined) return false;
      await tx
        .insertInto('memberships')
        .values({ organization_id: accepted.organization_id, user_id: input.userId, role: accepted.role })
        .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doNothing())
        .execute();
      return true;
    });
  }

  /** Closes an open invitation as declined or revoked; false when it was no longer open. */
  async close(id: string, how: 'declined' | 'revoked', now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('invitations')
      .set(how === 'declined' ? { declined_at: now } : { revoked_at: now })
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('declined_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}

interface InvitationRow {
  id: string;
  organization_id: string;
  email: string;
  role: MemberRole;
  invited_by_email: string | null;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  declined_at: Date | null;
  revoked_at: Date | null;
  organization_name: string;
  organization_type: OrganizationType;
}

function toReceived(row: InvitationRow): ReceivedInvitation {
  return {
    id: row.id,
    organizationId: row.organization_id,
    email: row.email,
    role: row.role,
    invitedByEmail: row.invited_by_email,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    acceptedAt: row.accepted_at,
    declinedAt: row.declined_at,
    revokedAt: row.revoked_at,
    organization: { id: row.organization_id, name: row.organization_name, type: row.organization_type },
  };
}
