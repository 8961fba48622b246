import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type TestControlPlane } from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { createOfferForVms, generationsOf, insertVm, markAbsent } from '../firewall/firewall.test-support.js';
import { bumpVmGenerations } from '../virtual-machines/index.js';
import type { ReadyOffer } from '../preflight/preflight.test-support.js';
import { OutboundSmtpRepository } from './outbound-smtp.repository.js';
import { OutboundSmtpService } from './outbound-smtp.service.js';

interface VmPolicyView {
  vmId: string;
  hostname: string;
  clientOrganizationId: string;
  action: string;
  effectiveBlocked: boolean;
}

const POLICY = '/v1/provider/network/smtp-outbound-policy';
const POLICIES = '/v1/provider/network/smtp-outbound-policies';

describe.each(DATABASE_KINDS)('outbound SMTP policies on the %s database', (kind) => {
  let t: TestControlPlane;
  let smtp: OutboundSmtpService;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
    smtp = new OutboundSmtpService({
      policies: new OutboundSmtpRepository(t.cp.db),
      bumpGenerations: bumpVmGenerations,
    });
  }, 60_000);
  afterAll(() => t.close());

  async function provider(): Promise<{ offer: ReadyOffer; customer: string }> {
    const offer = await createOfferForVms(t);
    return { offer, customer: (await t.register('ORGANIZATION_TYPE_CLIENT')).organizationId };
  }

  async function setVm(offer: ReadyOffer, vmId: string, action: string) {
    return t.call<{ policy: VmPolicyView }>('PUT', `${POLICIES}/${vmId}`, {
      as: offer.seller.provider,
      body: { action: `SMTP_OUTBOUND_VM_ACTION_${action}` },
    });
  }

  it('blocks by default until the provider says otherwise, and only providers may say', async () => {
    const { offer, customer } = await provider();
    const as = offer.seller.provider;
    expect((await t.call('GET', POLICY, { as })).body).toEqual({ policy: { blockByDefault: true } });
    const vm = await insertVm(t, offer, customer);
    expect(await smtp.effectiveBlockedFor(vm.id)).toBe(true);

    const put = await t.call('PUT', POLICY, { as, body: { blockByDefault: false } });
    expect([put.status, put.body]).toEqual([200, { policy: { blockByDefault: false } }]);
    expect((await t.call('GET', POLICY, { as })).body).toEqual({ policy: { blockByDefault: false } });
    expect(await smtp.effectiveBlockedFor(vm.id)).toBe(false);

    const client = await t.register('ORGANIZATION_TYPE_CLIENT');
    expect((await t.call('GET', POLICY, { as: client })).status).toBe(403);
    expect(
      (
        await t.call('PUT', `${POLICIES}/${vm.id}`, {
          as: client,
          body: { action: 'SMTP_OUTBOUND_VM_ACTION_ALLOW' },
        })
      ).status,
    ).toBe(403);
    const bad = await t.call('PUT', POLICY, { as, body: { blockByDefault: 'yes' } });
    expect(bad.status).toBe(400);
    expect((await t.call('PUT', `${POLICIES}/${vm.id}`, { as, body: { action: 'ALLOW' } })).status).toBe(400);
  });

  it('gives each VM its own decision or the default, and lists what each comes to', async () => {
    const { offer, customer } = await provider();
    const as = offer.seller.provider;
    const mail = await insertVm(t, offer, customer, { hostname: 'mail.example.com' });
    const web = await insertVm(t, offer, customer, { hostname: 'web.example.com' });
    const allowed = await setVm(offer, mail.id, 'ALLOW');
    expect(allowed.body.policy).toEqual({
      vmId: mail.id,
      hostname: 'mail.example.com',
      clientOrganizationId: customer,
      action: 'SMTP_OUTBOUND_VM_ACTION_ALLOW',
      effectiveBlocked: false,
    });
    expect(await smtp.effectiveBlockedFor(mail.id)).toBe(false);
    expect(await smtp.effectiveBlockedFor(web.id)).toBe(true);

    const list = await t.call<{ policies: VmPolicyView[]; totalCount: number }>('GET', POLICIES, { as });
    expect(list.body.totalCount).toBe(2);
    expect(list.body.policies.map((p) => [p.hostname, p.action, p.effectiveBlocked])).toEqual([
      ['mail.example.com', 'SMTP_OUTBOUND_VM_ACTION_ALLOW', false],
      ['web.example.com', 'SMTP_OUTBOUND_VM_ACTION_INHERIT', true],
    ]);
    const search = async (text: string) =>
      (
        await t.call<{ policies: VmPolicyView[] }>('GET', `${POLICIES}?search=${encodeURIComponent(text)}`, {
          as,
        })
      ).body.policies.map((p) => p.vmId);
    expect(await search('MAIL')).toEqual([mail.id]);
    expect(await search(web.id)).toEqual([web.id]);
    expect(await search('nothing')).toEqual([]);

    await t.call('PUT', POLICY, { as, body: { blockByDefault: false } });
    expect(
      (await t.call<{ policy: VmPolicyView }>('GET', `${POLICIES}/${web.id}`, { as })).body.policy,
    ).toMatchObject({
      action: 'SMTP_OUTBOUND_VM_ACTION_INHERIT',
      effectiveBlocked: false,
    });
    await setVm(offer, mail.id, 'BLOCK');
    expect(await smtp.effectiveBlockedFor(mail.id)).toBe(true);
    await setVm(offer, mail.id, 'INHERIT');
    expect(await smtp.effectiveBlockedFor(mail.id)).toBe(false);

    // A VM being deleted is no longer one to decide for.
    await markAbsent(t, web.id);
    expect((await setVm(offer, web.id, 'ALLOW')).status).toBe(404);
    expect((await t.call<{ totalCount: number }>('GET', POLICIES, { as })).body.totalCount).toBe(1);
  });

  it('bumps the generation of exactly the live VMs whose effective block flips', async () => {
    const { offer, customer } = await provider();
    const other = await provider();
    const inheriting = await insertVm(t, offer, customer);
    const allowed = await insertVm(t, offer, customer);
    const blocked = await insertVm(t, offer, customer);
    const deleting = await insertVm(t, offer, customer);
    const elsewhere = await insertVm(t, other.offer, other.customer);
    await setVm(offer, allowed.id, 'ALLOW');
    await setVm(offer, blocked.id, 'BLOCK');
    await markAbsent(t, deleting.id);
    const ids = [inheriting.id, allowed.id, blocked.id, deleting.id, elsewhere.id];
    let last = await generationsOf(t, ids);
    const expectBumped = async (change: string, bumped: string[]) => {
      const now = await generationsOf(t, ids);
      expect(
        ids.filter((_, i) => now[i] !== last[i]),
        change,
      ).toEqual(bumped);
      last = now;
    };
    const as = offer.seller.provider;

    await t.call('PUT', POLICY, { as, body: { blockByDefault: true } });
    await expectBumped('the default set to what it was', []);
    await t.call('PUT', POLICY, { as, body: { blockByDefault: false } });
    await expectBumped('the default flipped', [inheriting.id]);
    await setVm(offer, allowed.id, 'INHERIT');
    await expectBumped('ALLOW to INHERIT under an allowing default', []);
    await setVm(offer, blocked.id, 'INHERIT');
    await expectBumped('BLOCK to INHERIT under an allowing default', [blocked.id]);
    await setVm(offer, inheriting.id, 'BLOCK');
    await expectBumped('INHERIT to BLOCK', [inheriting.id]);
    await setVm(offer, inheriting.id, 'BLOCK');
    await expectBumped('BLOCK again', []);
  });

  it("hides other providers' VMs: 404, and nothing changes", async () => {
    const { offer, customer } = await provider();
    const stranger = await provider();
    const vm = await insertVm(t, offer, customer);
    const before = await generationsOf(t, [vm.id]);
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { action: 'SMTP_OUTBOUND_VM_ACTION_ALLOW' }],
    ] as const) {
      const response = await t.call(method, `${POLICIES}/${vm.id}`, {
        as: stranger.offer.seller.provider,
        body,
      });
      expect([response.status, response.body.code]).toEqual([404, 'NOT_FOUND']);
    }
    expect(
      (
        await t.call<{ totalCount: number }>('GET', `${POLICIES}?search=${vm.id}`, {
          as: stranger.offer.seller.provider,
        })
      ).body.totalCount,
    ).toBe(0);
    expect(await smtp.effectiveBlockedFor(vm.id)).toBe(true);
    expect(await generationsOf(t, [vm.id])).toEqual(before);
  });
});
