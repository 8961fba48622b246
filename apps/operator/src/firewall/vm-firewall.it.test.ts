import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FirewallRule as RuleSetRule, FirewallRuleSet, ProxmoxVM } from '@noderings/kube';
import { CRD_API_VERSION, findCondition, keyOf, parseObjectKey } from '@noderings/kube';
import type { FirewallRule, ProxmoxClient } from '@noderings/proxmox';

import type { Env } from '../operator-fixture.test-support.js';
import {
  callsMatching,
  createVm,
  eventually,
  proxmoxClientFor,
  startEnv,
} from '../operator-fixture.test-support.js';

let env: Env;
let pve: ProxmoxClient;

beforeAll(async () => {
  env = await startEnv();
  pve = proxmoxClientFor(env);
  await env.startOperator();
});

afterAll(async () => {
  await pve.close();
  await env.close();
});

const SMTP = {
  type: 'out',
  action: 'DROP',
  enable: 1,
  proto: 'tcp',
  dport: '25,465,587',
  comment: 'nr:smtp-block',
};

const SSH: RuleSetRule = {
  direction: 'in',
  action: 'ACCEPT',
  protocol: 'tcp',
  destinationPorts: '22',
  sources: ['198.51.100.0/24', '203.0.113.7/32'],
  comment: 'ssh from the office',
};
const WEB: RuleSetRule = {
  direction: 'in',
  action: 'ACCEPT',
  protocol: 'tcp',
  destinationPorts: '80,443,8000:8100',
};
const DNS: RuleSetRule = {
  direction: 'out',
  action: 'REJECT',
  protocol: 'udp',
  sourcePorts: '1024:65535',
  destinations: ['2001:db8::/32', '2001:db8:1::/48'],
};
const RULES = [SSH, WEB, DNS];

/** The rules as pve-sim reports them for `RULES[0..2]` of ruleset `name`. */
function expectedRules(name: string): Record<string, unknown>[] {
  return [
    {
      type: 'in',
      action: 'ACCEPT',
      enable: 1,
      proto: 'tcp',
      dport: '22',
      source: '198.51.100.0/24,203.0.113.7/32',
      comment: `nr:${name}#1 ssh from the office`,
    },
    {
      type: 'in',
      action: 'ACCEPT',
      enable: 1,
      proto: 'tcp',
      dport: '80,443,8000:8100',
      comment: `nr:${name}#2`,
    },
    {
      type: 'out',
      action: 'REJECT',
      enable: 1,
      proto: 'udp',
      sport: '1024:65535',
      dest: '2001:db8::/32,2001:db8:1::/48',
      comment: `nr:${name}#3`,
    },
  ];
}

async function createRuleSet(vm: ProxmoxVM, name: string, rules: RuleSetRule[]): Promise<FirewallRuleSet> {
  return env.kube.firewallRuleSets.create({
    apiVersion: CRD_API_VERSION,
    kind: 'FirewallRuleSet',
    metadata: { name, namespace: vm.metadata?.namespace ?? '' },
    spec: { rules },
  });
}

/** The guest's rules top to bottom, without the bookkeeping fields Proxmox adds. */
async function rulesOf(vmid: number): Promise<Record<string, unknown>[]> {
  const rules = await pve.getFirewallRules('pve1', vmid);
  return rules
    .sort((a, b) => a.pos - b.pos)
    .map(({ pos: _pos, digest: _digest, ...rest }: FirewallRule) => rest);
}

async function untilRules(vmid: number, expected: Record<string, unknown>[]): Promise<void> {
  await eventually(async () => {
    expect(await rulesOf(vmid)).toEqual(expected);
    // Enabled, with traffic open by default: Proxmox's own inbound default (DROP) would cut the VM off.
    expect(await pve.getFirewallOptions('pve1', vmid)).toMatchObject({
      enable: 1,
      policy_in: 'ACCEPT',
      policy_out: 'ACCEPT',
    });
  });
}

async function untilCondition(vm: ProxmoxVM, status: string, reason: string): Promise<ProxmoxVM> {
  return eventually(async () => {
    const now = await env.kube.proxmoxVMs.get(parseObjectKey(keyOf(vm)));
    expect(findCondition(now.status?.conditions, 'FirewallSynced')).toMatchObject({ status, reason });
    return now;
  });
}

/** Wakes the VM's reconcile without changing its spec, as a resync would. */
async function touch(vm: ProxmoxVM): Promise<void> {
  await env.kube.proxmoxVMs.mergePatch(parseObjectKey(keyOf(vm)), {
    metadata: { annotations: { 'test.noderings.com/touched': String(Date.now()) } },
  });
}

describe('VM firewall', () => {
  it('applies the SMTP block and the ruleset, follows edits, corrects drift and drops the SMTP rule on request', async () => {
    const vm = await createVm(env, (v) => {
      v.spec.firewallRuleSetRef = 'web';
    });
    const ruleSet = await createRuleSet(vm, 'web', RULES);
    const { vmid } = vm.spec;
    await untilRules(vmid, [SMTP, ...expectedRules('web')]);
    await untilCondition(vm, 'True', 'Synced');
    await eventually(async () => {
      const stored = await env.kube.firewallRuleSets.get(parseObjectKey(keyOf(ruleSet)));
      expect(stored.status).toMatchObject({ phase: 'Applied', ruleCount: 3 });
    });

    // Nothing is written when nothing drifted.
    await env.sim('DELETE', '/sim/calls');
    await touch(vm);
    await eventually(async () => {
      expect(await callsMatching(env, 'GET', new RegExp(`/qemu/${vmid}/firewall/options$`))).not.toEqual([]);
    });
    const firewallWrites = new RegExp(`/qemu/${vmid}/firewall/`);
    expect([
      ...(await callsMatching(env, 'POST', firewallWrites)),
      ...(await callsMatching(env, 'PUT', firewallWrites)),
      ...(await callsMatching(env, 'DELETE', firewallWrites)),
    ]).toEqual([]);

    // An edit of the ruleset reaches the VM.
    const edited = [{ ...WEB, destinationPorts: '443' }, SSH];
    await env.kube.firewallRuleSets.mergePatch(parseObjectKey(keyOf(ruleSet)), { spec: { rules: edited } });
    const [first, second] = expectedRules('web');
    const editedExpected = [
      SMTP,
      { ...second, dport: '443', comment: 'nr:web#1' },
      { ...first, comment: 'nr:web#2 ssh from the office' },
    ];
    await untilRules(vmid, editedExpected);

    // Drift: a rule deleted and a foreign one added.
    await pve.deleteFirewallRule('pve1', vmid, 1);
    await pve.createFirewallRule('pve1', vmid, {
      type: 'in',
      action: 'ACCEPT',
      enable: true,
      comment: 'added by hand',
    });
    await touch(vm);
    await untilRules(vmid, editedExpected);

    // Drift: a rule disabled, two swapped, the firewall switched off.
    await pve.updateFirewallRule('pve1', vmid, 0, { enable: false });
    await pve.updateFirewallRule('pve1', vmid, 2, { moveto: 1 });
    await pve.setFirewallOptions('pve1', vmid, { enable: false });
    expect((await pve.getFirewallOptions('pve1', vmid)).enable).toBe(0);
    await touch(vm);
    await untilRules(vmid, editedExpected);

    // SMTP allowed: only the SMTP rule goes.
    await env.kube.proxmoxVMs.mergePatch(parseObjectKey(keyOf(vm)), { spec: { smtpBlocked: false } });
    await untilRules(vmid, editedExpected.slice(1));
    await untilCondition(vm, 'True', 'Synced');
  });

  it('applies the SMTP block alone while the ruleset is missing, and the ruleset once it appears', async () => {
    const vm = await createVm(env, (v) => {
      v.spec.firewallRuleSetRef = 'late';
    });
    const waiting = await untilCondition(vm, 'False', 'RuleSetNotFound');
    expect(findCondition(waiting.status?.conditions, 'FirewallSynced')?.message).toContain("'late'");
    await untilRules(vm.spec.vmid, [SMTP]);

    await createRuleSet(vm, 'late', RULES);
    await untilRules(vm.spec.vmid, [SMTP, ...expectedRules('late')]);
    await untilCondition(vm, 'True', 'Synced');
  });

  it('marks an invalid ruleset Failed and applies only the SMTP block to its VMs', async () => {
    const vm = await createVm(env, (v) => {
      v.spec.firewallRuleSetRef = 'broken';
    });
    const ruleSet = await createRuleSet(vm, 'broken', [
      { direction: 'in', action: 'ACCEPT', destinationPorts: '22' },
    ]);
    await eventually(async () => {
      const stored = await env.kube.firewallRuleSets.get(parseObjectKey(keyOf(ruleSet)));
      expect(stored.status).toMatchObject({
        phase: 'Failed',
        ruleCount: 1,
        message: 'rule 1: destinationPorts needs a protocol',
      });
    });
    await untilCondition(vm, 'False', 'RuleSetInvalid');
    await untilRules(vm.spec.vmid, [SMTP]);
  });

  it('never touches the firewall of a guest that is not ours', async () => {
    await pve.createFirewallRule('pve1', 100, { type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '8006' });
    const before = await pve.getFirewallRules('pve1', 100);
    const optionsBefore = await pve.getFirewallOptions('pve1', 100);
    await env.sim('DELETE', '/sim/calls');
    const vm = await createVm(env, (v) => {
      v.spec.vmid = 100;
      v.spec.firewallRuleSetRef = 'web';
    });
    await eventually(async () => {
      const now = await env.kube.proxmoxVMs.get(parseObjectKey(keyOf(vm)));
      expect(findCondition(now.status?.conditions, 'VmidConflict')?.status).toBe('True');
    });
    await touch(vm);
    await eventually(async () => {
      expect((await callsMatching(env, 'GET', /\/qemu\/100\/config$/)).length).toBeGreaterThan(1);
    });
    expect(await pve.getFirewallRules('pve1', 100)).toEqual(before);
    expect(await pve.getFirewallOptions('pve1', 100)).toEqual(optionsBefore);
    const writes = (await env.sim<{ method: string; path: string }[]>('GET', '/sim/calls')).filter(
      (c) => c.method !== 'GET' && c.path.includes('/qemu/100/'),
    );
    expect(writes).toEqual([]);
  });
});
