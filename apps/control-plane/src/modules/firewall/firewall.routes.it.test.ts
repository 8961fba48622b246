import { parseIpPrefix } from '@noderings/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type ApiResponse,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import type { ReadyOffer } from '../preflight/preflight.test-support.js';
import { createFirewallModule } from './firewall.module.js';
import type { FirewallService } from './firewall.service.js';
import { createOfferForVms, generationsOf, insertVm, markAbsent } from './firewall.test-support.js';

interface RuleSetView {
  id: string;
  name: string;
  ruleCount: number;
  attachedVmCount: number;
  attachedVmHostnames: string[];
  attachedVmIds: string[];
}

interface RuleView {
  id: string;
  rulesetId: string;
  position: number;
  rule: Record<string, unknown>;
}

const INGRESS = 'FIREWALL_DIRECTION_INGRESS';
const EGRESS = 'FIREWALL_DIRECTION_EGRESS';

function fieldsOf(response: ApiResponse): string[] {
  const details = (response.body.details ?? []) as { fieldViolations: { field: string }[] }[];
  return details.flatMap((d) => d.fieldViolations.map((v) => v.field));
}

/** CIDRs as the compiler orders them: by address, not by spelling. */
function inAddressOrder(cidrs: string[]): string[] {
  const network = (cidr: string) => parseIpPrefix(cidr, 'cidr').network;
  return [...cidrs].sort((x, y) => (network(x) < network(y) ? -1 : 1));
}

function ruleBody(overrides: Record<string, unknown> = {}) {
  return { rule: { direction: INGRESS, action: 'FIREWALL_ACTION_ACCEPT', ...overrides } };
}

describe.each(DATABASE_KINDS)('the customer firewall on the %s database', (kind) => {
  let t: TestControlPlane;
  let offer: ReadyOffer;
  let firewall: FirewallService;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
    offer = await createOfferForVms(t);
    firewall = createFirewallModule(t.cp.db, () => new Date()).firewall;
  }, 60_000);
  afterAll(() => t.close());

  async function createRuleSet(as: Caller, name: string): Promise<RuleSetView> {
    const response = await t.call<{ ruleset: RuleSetView }>('POST', '/v1/firewall/rulesets', {
      as,
      body: { ruleset: { name } },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.ruleset;
  }

  async function createRule(as: Caller, rulesetId: string, body = ruleBody()): Promise<RuleView> {
    const response = await t.call<{ rule: RuleView }>('POST', `/v1/firewall/rulesets/${rulesetId}/rules`, {
      as,
      body,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.rule;
  }

  async function createGroup(as: Caller, name: string, prefixes: string[]): Promise<string> {
    const response = await t.call<{ group: { id: string } }>('POST', '/v1/firewall/address-groups', {
      as,
      body: { group: { name, prefixes } },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.group.id;
  }

  async function attach(as: Caller, vmId: string, rulesetId: string, verb = 'attach-firewall') {
    return t.call<{ ruleset: RuleSetView }>('POST', `/v1/virtual-machines/${vmId}:${verb}`, {
      as,
      body: { rulesetId },
    });
  }

  /** The ids of a direction's rules in the order they are matched, with their positions checked dense. */
  async function order(as: Caller, rulesetId: string, direction: string): Promise<string[]> {
    const list = await t.call<{ rules: RuleView[] }>(
      'GET',
      `/v1/firewall/rulesets/${rulesetId}/rules?direction=${direction}&pageSize=100`,
      { as },
    );
    expect(list.body.rules.map((r) => r.position)).toEqual(list.body.rules.map((_, i) => i));
    return list.body.rules.map((r) => r.id);
  }

  it('creates, lists, renames and deletes rulesets, names unique per organisation', async () => {
    const customer = await t.register('ORGANIZATION_TYPE_CLIENT');
    const web = await createRuleSet(customer, 'web servers');
    expect(web).toEqual({
      id: web.id,
      name: 'web servers',
      ruleCount: 0,
      attachedVmCount: 0,
      attachedVmHostnames: [],
      attachedVmIds: [],
    });
    const db = await createRuleSet(customer, 'Databases');
    const taken = await t.call('POST', '/v1/firewall/rulesets', {
      as: customer,
      body: { ruleset: { name: 'web servers' } },
    });
    expect([taken.status, taken.body.message]).toEqual([
      409,
      'The organization already has a firewall ruleset named web servers.',
    ]);
    // Another organisation may use the name.
    await createRuleSet(await t.register('ORGANIZATION_TYPE_CLIENT'), 'web servers');

    await createRule(customer, db.id);
    const vm = await insertVm(t, offer, customer.organizationId, { hostname: 'db-1' });
    expect((await attach(customer, vm.id, db.id)).body.ruleset).toMatchObject({
      ruleCount: 1,
      attachedVmCount: 1,
      attachedVmHostnames: ['db-1'],
      attachedVmIds: [vm.id],
    });

    const names = async (query: string) =>
      (
        await t.call<{ rulesets: RuleSetView[]; totalCount: number }>(
          'GET',
          `/v1/firewall/rulesets?${query}`,
          {
            as: customer,
          },
        )
      ).body;
    expect((await names('')).rulesets.map((r) => r.name)).toEqual(['Databases', 'web servers']);
    expect((await names('name=DATA')).rulesets.map((r) => r.name)).toEqual(['Databases']);
    expect((await names('filterAttachment=FIREWALL_RULESET_ATTACHMENT_FILTER_ATTACHED')).rulesets).toEqual([
      {
        id: db.id,
        name: 'Databases',
        ruleCount: 1,
        attachedVmCount: 1,
        attachedVmHostnames: ['db-1'],
        attachedVmIds: [vm.id],
      },
    ]);
    expect(
      (await names('filterAttachment=FIREWALL_RULESET_ATTACHMENT_FILTER_UNATTACHED')).rulesets.map(
        (r) => r.name,
      ),
    ).toEqual(['web servers']);
    expect(await names('pageSize=1&page=1')).toMatchObject({
      totalCount: 2,
      rulesets: [{ name: 'web servers' }],
    });

    const renamed = await t.call<{ ruleset: RuleSetView }>('PATCH', `/v1/firewall/rulesets/${web.id}`, {
      as: customer,
      body: { ruleset: { name: 'frontends' } },
    });
    expect(renamed.body.ruleset.name).toBe('frontends');
    expect(
      (
        await t.call('PATCH', `/v1/firewall/rulesets/${web.id}`, {
          as: customer,
          body: { ruleset: { name: 'Databases' } },
        })
      ).status,
    ).toBe(409);

    // Attached: only with force, which detaches it.
    const refused = await t.call('DELETE', `/v1/firewall/rulesets/${db.id}`, { as: customer });
    expect([refused.status, refused.body.code]).toEqual([412, 'FAILED_PRECONDITION']);
    expect(
      (await t.call('DELETE', `/v1/firewall/rulesets/${db.id}?force=true`, { as: customer })).status,
    ).toBe(200);
    expect((await t.call('GET', `/v1/firewall/rulesets/${db.id}`, { as: customer })).status).toBe(404);
    expect(await firewall.compiledRuleSetFor(vm.id)).toBeUndefined();
    expect((await t.call('DELETE', `/v1/firewall/rulesets/${web.id}`, { as: customer })).status).toBe(200);
    expect((await names('')).totalCount).toBe(0);

    await expect
      .poll(async () =>
        (
          await t.cp.db
            .selectFrom('audit_events')
            .select('action')
            .where('organization_id', '=', customer.organizationId)
            .where((eb) =>
              eb.or([eb('action', 'like', 'firewall-%'), eb('action', 'like', 'virtual-machine.%')]),
            )
            .orderBy('id')
            .execute()
        ).map((e) => e.action),
      )
      .toEqual([
        'firewall-ruleset.create',
        'firewall-ruleset.create',
        'firewall-ruleset.create',
        'firewall-rule.create',
        'virtual-machine.attach-firewall',
        'firewall-ruleset.update',
        'firewall-ruleset.update',
        'firewall-ruleset.delete',
        'firewall-ruleset.delete',
        'firewall-ruleset.delete',
      ]);
  });

  it('refuses invalid rulesets, rules and address groups with the field at fault, and writes nothing', async () => {
    const customer = await t.register('ORGANIZATION_TYPE_CLIENT');
    const ruleset = await createRuleSet(customer, 'strict');
    const stranger = await t.register('ORGANIZATION_TYPE_CLIENT');
    const foreignGroup = await createGroup(stranger, 'theirs', ['192.0.2.0/24']);
    const rules = `/v1/firewall/rulesets/${ruleset.id}/rules`;
    const cases: [string, string, unknown, string[]][] = [
      ['POST', '/v1/firewall/rulesets', { ruleset: { name: ' padded' } }, ['ruleset.name']],
      ['POST', '/v1/firewall/rulesets', { ruleset: {} }, ['ruleset.name']],
      [
        'POST',
        rules,
        ruleBody({ protocol: 'FIREWALL_PROTOCOL_ICMP', destinationPorts: '22' }),
        ['rule.destinationPorts'],
      ],
      [
        'POST',
        rules,
        ruleBody({ protocol: 'FIREWALL_PROTOCOL_TCP', destinationPorts: '22,80' }),
        ['rule.destinationPorts'],
      ],
      [
        'POST',
        rules,
        ruleBody({ protocol: 'FIREWALL_PROTOCOL_TCP', sourcePorts: '9000-8000' }),
        ['rule.sourcePorts'],
      ],
      ['POST', rules, ruleBody({ source: { ips: ['192.0.2.1', '192.0.2.1/24'] } }), ['rule.source.ips.1']],
      ['POST', rules, ruleBody({ destination: {} }), ['rule.destination']],
      ['POST', rules, ruleBody({ source: { vmTags: ['Web'] } }), ['rule.source.vmTags.0']],
      ['POST', rules, ruleBody({ protocol: 'FIREWALL_PROTOCOL_VXLAN' }), ['rule.protocol']],
      ['POST', rules, ruleBody({ direction: 'IN' }), ['rule.direction']],
      ['POST', rules, ruleBody({ comment: 'x' }), ['rule.comment']],
      [
        'POST',
        rules,
        ruleBody({ source: { addressGroupIds: [foreignGroup] } }),
        ['rule.source.addressGroupIds.0'],
      ],
      [
        'POST',
        '/v1/firewall/address-groups',
        { group: { name: 'g', prefixes: ['10.0.0.1/8'] } },
        ['group.prefixes.0'],
      ],
      [
        'POST',
        '/v1/firewall/address-groups',
        { group: { name: 'g', prefixes: ['10.0.0.1'] } },
        ['group.prefixes.0'],
      ],
      ['POST', '/v1/firewall/address-groups', { group: { prefixes: [] } }, ['group.name']],
    ];
    for (const [method, path, body, fields] of cases) {
      const response = await t.call(method, path, { as: customer, body });
      expect([response.status, fieldsOf(response)], JSON.stringify(body)).toEqual([400, fields]);
    }
    const listed = await t.call<{ totalCount: number }>('GET', rules, { as: customer });
    expect(listed.body.totalCount).toBe(0);
    expect(
      (await t.call<{ totalCount: number }>('GET', '/v1/firewall/address-groups', { as: customer })).body
        .totalCount,
    ).toBe(0);
    expect((await t.call('GET', `${rules}?direction=SIDEWAYS`, { as: customer })).status).toBe(400);
  });

  it('keeps rules as given, in one spelling, and replaces them whole', async () => {
    const customer = await t.register('ORGANIZATION_TYPE_CLIENT');
    const ruleset = await createRuleSet(customer, 'spelling');
    const group = await createGroup(customer, 'office', ['2001:DB8::/32', '192.0.2.0/24', '192.0.2.0/24']);
    expect((await t.call('GET', `/v1/firewall/address-groups/${group}`, { as: customer })).body).toEqual({
      group: { id: group, name: 'office', prefixes: ['2001:db8::/32', '192.0.2.0/24'] },
    });
    const rule = await createRule(
      customer,
      ruleset.id,
      ruleBody({
        protocol: 'FIREWALL_PROTOCOL_TCP',
        destinationPorts: '0443',
        source: { ips: ['2001:DB8::1'], addressGroupIds: [group, group] },
      }),
    );
    expect(rule).toEqual({
      id: rule.id,
      rulesetId: ruleset.id,
      position: 0,
      rule: {
        direction: INGRESS,
        action: 'FIREWALL_ACTION_ACCEPT',
        protocol: 'FIREWALL_PROTOCOL_TCP',
        destinationPorts: '443',
        source: { ips: ['2001:db8::1'], addressGroupIds: [group], vmTags: [] },
      },
    });
    const replaced = await t.call<{ rule: RuleView }>('PATCH', `/v1/firewall/rules/${rule.id}`, {
      as: customer,
      body: ruleBody({ action: 'FIREWALL_ACTION_DROP' }),
    });
    expect(replaced.body.rule.rule).toEqual({
      direction: INGRESS,
      action: 'FIREWALL_ACTION_DROP',
      protocol: 'FIREWALL_PROTOCOL_ANY',
    });
    // No rule names the group any more.
    expect((await t.call('DELETE', `/v1/firewall/address-groups/${group}`, { as: customer })).status).toBe(
      200,
    );
  });

  it('keeps positions dense per direction under concurrent creates, moves and deletes', async () => {
    const customer = await t.register('ORGANIZATION_TYPE_CLIENT');
    const ruleset = await createRuleSet(customer, 'busy');
    const created = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        createRule(customer, ruleset.id, ruleBody({ direction: i % 2 === 0 ? INGRESS : EGRESS })),
      ),
    );
    const ingress = await order(customer, ruleset.id, INGRESS);
    const egress = await order(customer, ruleset.id, EGRESS);
    expect([ingress.length, egress.length]).toEqual([8, 8]);
    expect(new Set([...ingress, ...egress])).toEqual(new Set(created.map((r) => r.id)));

    const moves = await Promise.all(
      ingress.map((id, i) =>
        t.call('POST', `/v1/firewall/rules/${id}/move`, {
          as: customer,
          body: {
            targetRuleId: ingress[(i + 3) % ingress.length],
            position: i % 2 === 0 ? 'FIREWALL_RULE_POSITION_BEFORE' : 'FIREWALL_RULE_POSITION_AFTER',
          },
        }),
      ),
    );
    expect(moves.map((m) => m.status)).toEqual(ingress.map(() => 200));
    const moved = await order(customer, ruleset.id, INGRESS);
    expect(new Set(moved)).toEqual(new Set(ingress));
    expect(await order(customer, ruleset.id, EGRESS)).toEqual(egress);

    const deletes = await Promise.all(
      [...moved.slice(0, 3), ...egress.slice(2, 6)].map((id) =>
        t.call('DELETE', `/v1/firewall/rules/${id}`, { as: customer }),
      ),
    );
    expect(deletes.map((d) => d.status)).toEqual(deletes.map(() => 200));
    expect(await order(customer, ruleset.id, INGRESS)).toEqual(moved.slice(3));
    expect(await order(customer, ruleset.id, EGRESS)).toEqual([...egress.slice(0, 2), ...egress.slice(6)]);
  });

  it('moves a rule before or after another of its direction, and turns it to the other direction last', async () => {
    const customer = await t.register('ORGANIZATION_TYPE_CLIENT');
    const ruleset = await createRuleSet(customer, 'ordered');
    const a = await createRule(customer, ruleset.id);
    const b = await createRule(customer, ruleset.id);
    const c = await createRule(customer, ruleset.id);
    const out = await createRule(customer, ruleset.id, ruleBody({ direction: EGRESS }));
    const move = (id: string, targetRuleId: string, position: string) =>
      t.call<{ rule: RuleView }>('POST', `/v1/firewall/rules/${id}/move`, {
        as: customer,
        body: { targetRuleId, position: `FIREWALL_RULE_POSITION_${position}` },
      });

    expect((await move(c.id, a.id, 'BEFORE')).body.rule.position).toBe(0);
    expect(await order(customer, ruleset.id, INGRESS)).toEqual([c.id, a.id, b.id]);
    expect((await move(c.id, b.id, 'AFTER')).body.rule.position).toBe(2);
    expect(await order(customer, ruleset.id, INGRESS)).toEqual([a.id, b.id, c.id]);
    expect((await move(b.id, b.id, 'AFTER')).status).toBe(200);
    const across = await move(a.id, out.id, 'BEFORE');
    expect([across.status, fieldsOf(across)]).toEqual([400, ['targetRuleId']]);

    const turned = await t.call<{ rule: RuleView }>('PATCH', `/v1/firewall/rules/${a.id}`, {
      as: customer,
      body: ruleBody({ direction: EGRESS }),
    });
    expect(turned.body.rule.position).toBe(1);
    expect(await order(customer, ruleset.id, INGRESS)).toEqual([b.id, c.id]);
    expect(await order(customer, ruleset.id, EGRESS)).toEqual([out.id, a.id]);
    const all = await t.call<{ rules: RuleView[] }>('GET', `/v1/firewall/rulesets/${ruleset.id}/rules`, {
      as: customer,
    });
    expect(all.body.rules.map((r) => r.id)).toEqual([b.id, c.id, out.id, a.id]);
  });

  it('compiles the attached ruleset with its tags and address groups for the dispatcher', async () => {
    const customer = await t.register('ORGANIZATION_TYPE_CLIENT');
    const web1 = await insertVm(t, offer, customer.organizationId, { tags: ['web'] });
    const web2 = await insertVm(t, offer, customer.organizationId, { tags: ['web', 'blue'] });
    const database = await insertVm(t, offer, customer.organizationId, { tags: ['db'] });
    const gone = await insertVm(t, offer, customer.organizationId, { tags: ['web'] });
    await markAbsent(t, gone.id);
    // Another organisation's VM with the tag is not "web" to this customer.
    await insertVm(t, offer, (await t.register('ORGANIZATION_TYPE_CLIENT')).organizationId, {
      tags: ['web'],
    });
    const office = await createGroup(customer, 'office', ['198.51.100.0/24', '2001:db8:ffff::/48']);
    const ruleset = await createRuleSet(customer, 'database');
    const ssh = await createRule(
      customer,
      ruleset.id,
      ruleBody({
        protocol: 'FIREWALL_PROTOCOL_TCP',
        destinationPorts: '22',
        source: { addressGroupIds: [office] },
      }),
    );
    const postgres = await createRule(
      customer,
      ruleset.id,
      ruleBody({ protocol: 'FIREWALL_PROTOCOL_TCP', destinationPorts: '5432', source: { vmTags: ['web'] } }),
    );
    const nobody = await createRule(
      customer,
      ruleset.id,
      ruleBody({ action: 'FIREWALL_ACTION_DROP', source: { vmTags: ['nobody'] } }),
    );
    const rest = await createRule(customer, ruleset.id, ruleBody({ action: 'FIREWALL_ACTION_DROP' }));
    const out = await createRule(
      customer,
      ruleset.id,
      ruleBody({
        direction: EGRESS,
        action: 'FIREWALL_ACTION_DROP',
        protocol: 'FIREWALL_PROTOCOL_UDP',
        destinationPorts: '1000-2000',
      }),
    );
    expect(await firewall.compiledRuleSetFor(database.id)).toBeUndefined();
    expect((await attach(customer, database.id, ruleset.id)).status).toBe(200);

    const tcp = { direction: 'in', action: 'ACCEPT', protocol: 'tcp' };
    expect(await firewall.compiledRuleSetFor(database.id)).toEqual({
      name: `nr-${database.id}-firewall`,
      rules: [
        { ...tcp, destinationPorts: '22', sources: ['198.51.100.0/24'], comment: ssh.id },
        { ...tcp, destinationPorts: '22', sources: ['2001:db8:ffff::/48'], comment: ssh.id },
        {
          ...tcp,
          destinationPorts: '5432',
          sources: inAddressOrder([`${web1.ipv4}/32`, `${web2.ipv4}/32`]),
          comment: postgres.id,
        },
        {
          ...tcp,
          destinationPorts: '5432',
          sources: inAddressOrder([web1.ipv6 ?? '', web2.ipv6 ?? '']),
          comment: postgres.id,
        },
        { direction: 'in', action: 'DROP', comment: rest.id },
        { direction: 'out', action: 'DROP', protocol: 'udp', destinationPorts: '1000:2000', comment: out.id },
      ],
    });
    // The rule naming a tag no VM carries matches nothing: it is left out, not turned into "from anywhere".
    expect(JSON.stringify(await firewall.compiledRuleSetFor(database.id))).not.toContain(nobody.id);
    expect(await firewall.compiledRuleSetFor(web1.id)).toBeUndefined();
  });

  it('bumps the generation of exactly the live VMs whose compiled ruleset a change changes', async () => {
    const customer = await t.register('ORGANIZATION_TYPE_CLIENT');
    const other = await t.register('ORGANIZATION_TYPE_CLIENT');
    const vm1 = await insertVm(t, offer, customer.organizationId, { tags: ['web'] });
    const vm2 = await insertVm(t, offer, customer.organizationId);
    const vm3 = await insertVm(t, offer, customer.organizationId);
    const absent = await insertVm(t, offer, customer.organizationId, { tags: ['web'] });
    const foreign = await insertVm(t, offer, other.organizationId, { tags: ['web'] });
    const r1 = await createRuleSet(customer, 'r1');
    const r2 = await createRuleSet(customer, 'r2');
    const theirs = await createRuleSet(other, 'theirs');
    const group = await createGroup(customer, 'partners', ['203.0.113.0/24']);
    await attach(customer, vm1.id, r1.id);
    await attach(customer, absent.id, r1.id);
    await attach(customer, vm2.id, r2.id);
    await attach(other, foreign.id, theirs.id);
    await markAbsent(t, absent.id);
    const ids = [vm1.id, vm2.id, vm3.id, absent.id, foreign.id];
    let last = await generationsOf(t, ids);
    const expectBumped = async (change: string, bumped: string[]) => {
      const now = await generationsOf(t, ids);
      expect(
        ids.filter((_, i) => now[i] !== last[i]),
        change,
      ).toEqual(bumped);
      expect(
        now.every((g, i) => g - (last[i] ?? 0) <= 1),
        change,
      ).toBe(true);
      last = now;
    };

    const rule = await createRule(customer, r1.id, ruleBody({ source: { vmTags: ['web'] } }));
    await expectBumped('a rule added to r1', [vm1.id]);
    await createRule(customer, r1.id, ruleBody({ source: { vmTags: ['nobody'] } }));
    await expectBumped('a rule that matches nothing', []);
    await t.call('PATCH', `/v1/firewall/rulesets/${r1.id}`, {
      as: customer,
      body: { ruleset: { name: 'r1b' } },
    });
    await expectBumped('a rename', []);
    await t.call('PATCH', `/v1/firewall/rules/${rule.id}`, {
      as: customer,
      body: ruleBody({ source: { vmTags: ['web', 'web'] } }),
    });
    await expectBumped('an edit that changes nothing', []);
    const named = await createRule(customer, r2.id, ruleBody({ source: { addressGroupIds: [group] } }));
    await expectBumped('a rule added to r2', [vm2.id]);
    await t.call('PATCH', `/v1/firewall/address-groups/${group}`, {
      as: customer,
      body: { group: { prefixes: ['203.0.113.0/25'] } },
    });
    await expectBumped('the address group r2 names', [vm2.id]);
    await t.call('PATCH', `/v1/firewall/address-groups/${group}`, {
      as: customer,
      body: { group: { name: 'renamed' } },
    });
    await expectBumped('the address group renamed', []);
    expect((await attach(customer, vm3.id, r2.id)).status).toBe(200);
    await expectBumped('attached', [vm3.id]);
    await attach(customer, vm3.id, r2.id);
    await expectBumped('attached again', []);
    await attach(customer, vm3.id, r1.id);
    await expectBumped('another ruleset attached in its place', [vm3.id]);
    await attach(customer, vm3.id, r2.id, 'detach-firewall');
    await expectBumped('a ruleset detached that was not its', []);
    await attach(customer, vm3.id, r1.id, 'detach-firewall');
    await expectBumped('detached', [vm3.id]);
    await t.call('DELETE', `/v1/firewall/rules/${named.id}`, { as: customer });
    await expectBumped('a rule of r2 deleted', [vm2.id]);

    // What the VM module calls when VMs carrying tags change: VMs whose ruleset names one of them.
    await t.cp.db.transaction().execute((tx) => firewall.vmTagsChanged(tx, customer.organizationId, ['web']));
    await expectBumped('VMs tagged web changed', [vm1.id]);
    await t.cp.db.transaction().execute((tx) => firewall.vmTagsChanged(tx, customer.organizationId, ['db']));
    await expectBumped('VMs tagged db changed', []);

    const force = await t.call('DELETE', `/v1/firewall/rulesets/${r1.id}?force=true`, { as: customer });
    expect(force.status).toBe(200);
    await expectBumped('r1 deleted', [vm1.id]);
  });

  it('tells the dispatcher after a change that bumped VMs has committed, and only then', async () => {
    const customer = await t.register('ORGANIZATION_TYPE_CLIENT');
    const vm = await insertVm(t, offer, customer.organizationId);
    let kicks = 0;
    const { routes } = createFirewallModule(
      t.cp.db,
      () => new Date(),
      () => {
        kicks++;
      },
    );
    const ruleset = await routes.rulesets.create(customer.organizationId, 'kicked');
    await routes.rules.create(customer.organizationId, ruleset.id, {
      direction: INGRESS,
      action: 'FIREWALL_ACTION_DROP',
      protocol: 'FIREWALL_PROTOCOL_ANY',
    });
    expect(kicks).toBe(0);
    await routes.rulesets.attach(customer.organizationId, vm.id, ruleset.id);
    expect(kicks).toBe(1);
    await routes.rulesets.attach(customer.organizationId, vm.id, ruleset.id);
    await routes.rulesets.rename(customer.organizationId, ruleset.id, 'renamed');
    expect(kicks).toBe(1);
    await routes.rulesets.delete(customer.organizationId, ruleset.id, true);
    expect(kicks).toBe(2);
  });

  it('attaches at most one ruleset, to live VMs of the customer only', async () => {
    const customer = await t.register('ORGANIZATION_TYPE_CLIENT');
    const vm = await insertVm(t, offer, customer.organizationId, { hostname: 'app-1' });
    const a = await createRuleSet(customer, 'a');
    const b = await createRuleSet(customer, 'b');
    await attach(customer, vm.id, a.id);
    const swapped = await attach(customer, vm.id, b.id);
    expect(swapped.body.ruleset).toMatchObject({ id: b.id, attachedVmHostnames: ['app-1'] });
    expect(
      (await t.call<{ ruleset: RuleSetView }>('GET', `/v1/firewall/rulesets/${a.id}`, { as: customer })).body
        .ruleset.attachedVmCount,
    ).toBe(0);
    const notIts = await attach(customer, vm.id, a.id, 'detach-firewall');
    expect([notIts.status, notIts.body.ruleset.attachedVmCount]).toEqual([200, 0]);
    expect((await firewall.compiledRuleSetFor(vm.id))?.name).toBe(`nr-${vm.id}-firewall`);

    await markAbsent(t, vm.id);
    const deleting = await t.call('POST', `/v1/virtual-machines/${vm.id}:attach-firewall`, {
      as: customer,
      body: { rulesetId: a.id },
    });
    expect([deleting.status, deleting.body.code]).toEqual([404, 'NOT_FOUND']);
    // A VM being deleted no longer counts as attached.
    expect((await t.call('DELETE', `/v1/firewall/rulesets/${b.id}`, { as: customer })).status).toBe(200);
    expect((await attach(customer, '00000000-0000-4000-8000-000000000000', a.id)).status).toBe(404);
  });

  it('refuses to delete an address group a rule names', async () => {
    const customer = await t.register('ORGANIZATION_TYPE_CLIENT');
    const group = await createGroup(customer, 'named', ['10.0.0.0/8']);
    const ruleset = await createRuleSet(customer, 'user');
    await createRule(customer, ruleset.id, ruleBody({ destination: { addressGroupIds: [group] } }));
    const refused = await t.call('DELETE', `/v1/firewall/address-groups/${group}`, { as: customer });
    expect([refused.status, refused.body.code]).toEqual([412, 'FAILED_PRECONDITION']);
    expect(
      (
        await t.call('POST', '/v1/firewall/address-groups', {
          as: customer,
          body: { group: { name: 'named', prefixes: [] } },
        })
      ).status,
    ).toBe(409);
    expect((await t.call('DELETE', `/v1/firewall/rulesets/${ruleset.id}`, { as: customer })).status).toBe(
      200,
    );
    expect((await t.call('DELETE', `/v1/firewall/address-groups/${group}`, { as: customer })).status).toBe(
      200,
    );
  });

  it("hides another organisation's rulesets, rules, groups and VMs: 404, and nothing changes", async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    const stranger = await t.register('ORGANIZATION_TYPE_CLIENT');
    const vm = await insertVm(t, offer, owner.organizationId);
    const group = await createGroup(owner, 'mine', ['192.0.2.0/24']);
    const ruleset = await createRuleSet(owner, 'mine');
    const rule = await createRule(owner, ruleset.id, ruleBody({ source: { addressGroupIds: [group] } }));
    const second = await createRule(owner, ruleset.id);
    await attach(owner, vm.id, ruleset.id);
    const strangerRuleset = await createRuleSet(stranger, 'theirs');
    const strangerVm = await insertVm(t, offer, stranger.organizationId);
    const before = await generationsOf(t, [vm.id]);
    const compiled = await firewall.compiledRuleSetFor(vm.id);

    const attempts: [string, string, unknown?][] = [
      ['GET', `/v1/firewall/rulesets/${ruleset.id}`],
      ['PATCH', `/v1/firewall/rulesets/${ruleset.id}`, { ruleset: { name: 'taken' } }],
      ['DELETE', `/v1/firewall/rulesets/${ruleset.id}?force=true`],
      ['GET', `/v1/firewall/rulesets/${ruleset.id}/rules`],
      ['POST', `/v1/firewall/rulesets/${ruleset.id}/rules`, ruleBody()],
      ['GET', `/v1/firewall/rules/${rule.id}`],
      ['PATCH', `/v1/firewall/rules/${rule.id}`, ruleBody()],
      ['DELETE', `/v1/firewall/rules/${rule.id}`],
      [
        'POST',
        `/v1/firewall/rules/${rule.id}/move`,
        { targetRuleId: second.id, position: 'FIREWALL_RULE_POSITION_AFTER' },
      ],
      ['GET', `/v1/firewall/address-groups/${group}`],
      ['PATCH', `/v1/firewall/address-groups/${group}`, { group: { prefixes: ['0.0.0.0/0'] } }],
      ['DELETE', `/v1/firewall/address-groups/${group}`],
      ['POST', `/v1/virtual-machines/${vm.id}:attach-firewall`, { rulesetId: strangerRuleset.id }],
      ['POST', `/v1/virtual-machines/${vm.id}:detach-firewall`, { rulesetId: ruleset.id }],
      ['POST', `/v1/virtual-machines/${strangerVm.id}:attach-firewall`, { rulesetId: ruleset.id }],
    ];
    for (const [method, path, body] of attempts) {
      const response = await t.call(method, path, { as: stranger, body });
      expect([response.status, response.body.code], `${method} ${path}`).toEqual([404, 'NOT_FOUND']);
    }
    const own = await t.call('POST', `/v1/firewall/rulesets/${strangerRuleset.id}/rules`, {
      as: stranger,
      body: ruleBody({ source: { addressGroupIds: [group] } }),
    });
    expect([own.status, fieldsOf(own)]).toEqual([400, ['rule.source.addressGroupIds.0']]);
    expect(
      (await t.call<{ totalCount: number }>('GET', '/v1/firewall/rulesets', { as: stranger })).body
        .totalCount,
    ).toBe(1);

    expect(await generationsOf(t, [vm.id])).toEqual(before);
    expect(await firewall.compiledRuleSetFor(vm.id)).toEqual(compiled);
    expect(await order(owner, ruleset.id, INGRESS)).toEqual([rule.id, second.id]);
    expect(
      (await t.call<{ ruleset: RuleSetView }>('GET', `/v1/firewall/rulesets/${ruleset.id}`, { as: owner }))
        .body.ruleset,
    ).toMatchObject({
      name: 'mine',
      ruleCount: 2,
      attachedVmCount: 1,
    });
  });
});
