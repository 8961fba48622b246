import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { INVITATION_LIFETIME_MS } from './invitation.service.js';

interface InvitationBody {
  invitation: { id: string; email: string; role: string; state: string; expireTime: string };
}

describe.each(DATABASE_KINDS)('invitations to an organization on the %s database', (kind) => {
  let t: TestControlPlane;
  let clock = Date.parse('2026-11-30T10:00:00Z');
  let owner: Caller & { organizationId: string; email: string };
  beforeAll(async () => {
    // Sessions outlive the week the expiry test moves the clock by.
    t = await startTestControlPlane(kind, {
      now: () => new Date(clock),
      sessionTtlMs: 365 * 24 * 60 * 60_000,
    });
    owner = await t.register();
  }, 60_000);
  afterAll(() => t.close(), 60_000);

  const invite = (email: string, role = 'MEMBER_ROLE_MEMBER', as: Caller = owner) =>
    t.call<InvitationBody>('POST', '/v1/organization/invitations', { as, body: { email, role } });
  const members = async () =>
    (
      await t.call<{ members: { email: string; role: string }[] }>('GET', '/v1/organization/members', {
        as: owner,
      })
    ).body.members;

  it('answers the same whether the email has an account, has none or is a member already', async () => {
    const registered = await t.register();
    const member = await t.register();
    await t.addMember(owner, member, 'member');
    const answers = [
      await invite(registered.email),
      await invite(`nobody-${randomUUID()}@example.test`),
      await invite(member.email),
      await invite(owner.email),
    ];
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    for (const answer of answers) {
      expect(Object.keys(answer.body).sort()).toEqual(['invitation']);
      expect(Object.keys(answer.body.invitation).sort()).toEqual([
        'createTime',
        'email',
        'expireTime',
        'id',
        'invitedByEmail',
        'organizationId',
        'role',
        'state',
      ]);
      expect(answer.body.invitation.state).toBe('INVITATION_STATE_PENDING');
      expect(JSON.stringify(answer.body)).not.toContain(registered.userId);
      expect(JSON.stringify(answer.body)).not.toContain(member.userId);
    }
    // Nobody joined by being invited.
    expect((await members()).map((m) => m.email)).not.toContain(registered.email);
  });

  it('no longer adds a registered user directly', async () => {
    const user = await t.register();
    const direct = await t.call('POST', '/v1/organization/members', {
      as: owner,
      body: { email: user.email, role: 'MEMBER_ROLE_ADMIN' },
    });
    expect(direct.status).toBe(404);
    expect((await members()).map((m) => m.email)).not.toContain(user.email);
  });

  it('lets the invitee, and only the invitee, see and accept it; they join with its role', async () => {
    const email = `later-${randomUUID()}@example.test`;
    const invited = await invite(email, 'MEMBER_ROLE_ADMIN');
    // The address registers after being invited, and finds the invitation waiting.
    const invitee = await registerAs(email);
    const mine = await t.call<{
      invitations: { id: string; role: string; organization: { id: string }; invitedByEmail: string }[];
    }>('GET', '/v1/invitations', { as: invitee });
    expect(mine.body.invitations).toEqual([
      expect.objectContaining({
        id: invited.body.invitation.id,
        role: 'MEMBER_ROLE_ADMIN',
        organization: expect.objectContaining({ id: owner.organizationId }) as unknown,
        invitedByEmail: owner.email,
      }),
    ]);
    const stranger = await t.register();
    expect(
      (await t.call<{ invitations: unknown[] }>('GET', '/v1/invitations', { as: stranger })).body.invitations,
    ).toEqual([]);
    const stolen = await t.call('POST', `/v1/invitations/${invited.body.invitation.id}:accept`, {
      as: stranger,
    });
    expect(stolen.status).toBe(404);
    expect(
      (await t.call('GET', '/v1/organization', { as: { ...stranger, organizationId: owner.organizationId } }))
        .status,
    ).toBe(403);

    const accepted = await t.call<{ organization: { id: string }; role: string }>(
      'POST',
      `/v1/invitations/${invited.body.invitation.id}:accept`,
      { as: invitee },
    );
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({
      organization: { id: owner.organizationId },
      role: 'MEMBER_ROLE_ADMIN',
    });
    expect(await members()).toContainEqual(expect.objectContaining({ email, role: 'MEMBER_ROLE_ADMIN' }));
    const again = await t.call('POST', `/v1/invitations/${invited.body.invitation.id}:accept`, {
      as: invitee,
    });
    expect(again.status).toBe(412);

    const log = await t.call<{ events: { targetId: string; actorId: string; statusCode: number }[] }>(
      'GET',
      '/v1/audit-events?action=invitation.accept',
      { as: owner },
    );
    expect(
      log.body.events.filter((e) => e.targetId === invited.body.invitation.id).map((e) => e.statusCode),
    ).toEqual([200]);
  });

  it('declines, revokes and expires', async () => {
    const decliner = await t.register();
    const declined = await invite(decliner.email);
    expect(
      (await t.call('POST', `/v1/invitations/${declined.body.invitation.id}:decline`, { as: decliner }))
        .status,
    ).toBe(200);
    expect(
      (await t.call('POST', `/v1/invitations/${declined.body.invitation.id}:accept`, { as: decliner }))
        .status,
    ).toBe(412);

    const revokedUser = await t.register();
    const revoked = await invite(revokedUser.email);
    expect(
      (await t.call('DELETE', `/v1/organization/invitations/${revoked.body.invitation.id}`, { as: owner }))
        .status,
    ).toBe(200);
    const afterRevoke = await t.call('POST', `/v1/invitations/${revoked.body.invitation.id}:accept`, {
      as: revokedUser,
    });
    expect(afterRevoke.status).toBe(412);

    const late = await t.register();
    const expiring = await invite(late.email);
    clock += INVITATION_LIFETIME_MS;
    expect(
      (await t.call<{ invitations: unknown[] }>('GET', '/v1/invitations', { as: late })).body.invitations,
    ).toEqual([]);
    const expired = await t.call('POST', `/v1/invitations/${expiring.body.invitation.id}:accept`, {
      as: late,
    });
    expect(expired.status).toBe(412);
    expect(expired.body.message).toMatch(/expired/);

    const list = await t.call<{ invitations: { id: string; state: string }[] }>(
      'GET',
      '/v1/organization/invitations?pageSize=100',
      { as: owner },
    );
    const stateOf = (id: string) => list.body.invitations.find((i) => i.id === id)?.state;
    expect([declined, revoked, expiring].map((i) => stateOf(i.body.invitation.id))).toEqual([
      'INVITATION_STATE_DECLINED',
      'INVITATION_STATE_REVOKED',
      'INVITATION_STATE_EXPIRED',
    ]);
    for (const user of [decliner, revokedUser, late])
      expect((await members()).map((m) => m.email)).not.toContain(user.email);
  });

  it('replaces an open invitation when the same address is invited again', async () => {
    const user = await t.register();
    const first = await invite(user.email, 'MEMBER_ROLE_MEMBER');
    const second = await invite(user.email, 'MEMBER_ROLE_ADMIN');
    const received = await t.call<{ invitations: { id: string; role: string }[] }>('GET', '/v1/invitations', {
      as: user,
    });
    expect(received.body.invitations.map((i) => [i.id, i.role])).toEqual([
      [second.body.invitation.id, 'MEMBER_ROLE_ADMIN'],
    ]);
    expect(
      (await t.call('POST', `/v1/invitations/${first.body.invitation.id}:accept`, { as: user })).status,
    ).toBe(412);
  });

  it('keeps only a hash of the token an emailed link will carry', async () => {
    const created = await invite(`hash-${randomUUID()}@example.test`);
    const row = await t.cp.db
      .selectFrom('invitations')
      .select('token_hash')
      .where('id', '=', created.body.invitation.id)
      .executeTakeFirstOrThrow();
    expect(Buffer.from(row.token_hash)).toHaveLength(32);
  });

  it('lets only owners invite owners, and admins manage the rest; another organization sees nothing', async () => {
    const admin = await t.register();
    await t.addMember(owner, admin, 'admin');
    const asAdmin = { token: admin.token, organizationId: owner.organizationId };
    expect((await invite(`o-${randomUUID()}@example.test`, 'MEMBER_ROLE_OWNER', asAdmin)).status).toBe(403);
    const byAdmin = await invite(`a-${randomUUID()}@example.test`, 'MEMBER_ROLE_MEMBER', asAdmin);
    expect(byAdmin.status).toBe(201);
    const ownerInvite = await invite(`o-${randomUUID()}@example.test`, 'MEMBER_ROLE_OWNER');
    expect(
      (
        await t.call('DELETE', `/v1/organization/invitations/${ownerInvite.body.invitation.id}`, {
          as: asAdmin,
        })
      ).status,
    ).toBe(403);
    const member = await t.register();
    await t.addMember(owner, member, 'member');
    const asMember = { token: member.token, organizationId: owner.organizationId };
    expect((await invite(`m-${randomUUID()}@example.test`, 'MEMBER_ROLE_MEMBER', asMember)).status).toBe(403);
    expect((await t.call('GET', '/v1/organization/invitations', { as: asMember })).status).toBe(403);

    const other = await t.register();
    const revokeTheirs = await t.call(
      'DELETE',
      `/v1/organization/invitations/${byAdmin.body.invitation.id}`,
      {
        as: other,
      },
    );
    expect(revokeTheirs.status).toBe(404);
    const theirList = await t.call<{ invitations: unknown[] }>('GET', '/v1/organization/invitations', {
      as: other,
    });
    expect(theirList.body.invitations).toEqual([]);
  });

  async function registerAs(email: string): Promise<Caller> {
    const response = await t.call<{ token: string }>('POST', '/v1/auth/register', {
      body: {
        email,
        password: 'correct horse battery',
        organizationName: 'Invitee Ltd',
        organizationType: 'ORGANIZATION_TYPE_CLIENT',
      },
    });
    expect(response.status).toBe(201);
    return { token: response.body.token };
  }
});
