import { afterAll, beforeAll, expect, test } from 'vitest';
import { call, data } from './api-test-client.js';
import { startPveSim, type PveSim } from './pve-sim.js';

let sim: PveSim;
beforeAll(async () => {
  sim = await startPveSim({ taskMs: 5 });
});
afterAll(async () => {
  await sim.close();
});

interface Rule {
  pos: number;
  type: string;
  action: string;
  enable: number;
  proto?: string;
  dport?: string;
  comment?: string;
  digest: string;
}
const rules = (vmid = 100) => data<Rule[]>(sim, 'GET', `/nodes/pve1/qemu/${vmid}/firewall/rules`);
const add = (params: Record<string, string | number>, vmid = 100) =>
  data(sim, 'POST', `/nodes/pve1/qemu/${vmid}/firewall/rules`, { params });

test('new rules go in at position 0, disabled unless enable=1, and every entry carries the same digest', async () => {
  await add({ type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '22', comment: 'ssh' });
  await add({ type: 'out', action: 'DROP', proto: 'tcp', dport: '25,465,587', enable: 1, comment: 'smtp' });
  const list = await rules();
  expect(list.map((r) => [r.pos, r.comment, r.enable])).toEqual([
    [0, 'smtp', 1],
    [1, 'ssh', 0],
  ]);
  expect(new Set(list.map((r) => r.digest)).size).toBe(1);
  expect(list[0]).toMatchObject({ type: 'out', action: 'DROP', proto: 'tcp', dport: '25,465,587' });
});

test('dport without proto is refused with the error on proto', async () => {
  const reply = await call(sim, 'POST', '/nodes/pve1/qemu/100/firewall/rules', {
    params: { type: 'in', action: 'ACCEPT', dport: '80' },
  });
  expect(reply.status).toBe(400);
  expect(reply.json.errors).toEqual({ proto: "missing property - 'dport' requires this property" });
});

test('moveto moves a rule before the rule that held that position', async () => {
  await add({ type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '443', comment: 'https' });
  expect((await rules()).map((r) => r.comment)).toEqual(['https', 'smtp', 'ssh']);
  await data(sim, 'PUT', '/nodes/pve1/qemu/100/firewall/rules/0', { params: { moveto: 2 } });
  expect((await rules()).map((r) => r.comment)).toEqual(['smtp', 'https', 'ssh']);
  await data(sim, 'PUT', '/nodes/pve1/qemu/100/firewall/rules/2', { params: { moveto: 0 } });
  expect((await rules()).map((r) => r.comment)).toEqual(['ssh', 'smtp', 'https']);
});

test('updates and deletes check the digest and the position', async () => {
  const [first] = await rules();
  await data(sim, 'PUT', '/nodes/pve1/qemu/100/firewall/rules/0', {
    params: { enable: 1, digest: first?.digest ?? '' },
  });
  expect((await rules())[0]?.enable).toBe(1);
  const stale = await call(sim, 'DELETE', '/nodes/pve1/qemu/100/firewall/rules/0', {
    params: { digest: first?.digest ?? '' },
  });
  expect([stale.status, stale.statusMessage]).toEqual([
    500,
    'detected modified configuration - file changed by other user? Try again.',
  ]);
  const missing = await call(sim, 'GET', '/nodes/pve1/qemu/100/firewall/rules/9');
  expect([missing.status, missing.statusMessage]).toEqual([500, 'no rule at position 9']);
  await data(sim, 'DELETE', '/nodes/pve1/qemu/100/firewall/rules/0');
  expect((await rules()).map((r) => r.comment)).toEqual(['smtp', 'https']);
});

test('options: enable defaults to off, policies and delete=', async () => {
  expect(await data(sim, 'GET', '/nodes/pve1/qemu/101/firewall/options')).not.toHaveProperty('enable');
  await data(sim, 'PUT', '/nodes/pve1/qemu/101/firewall/options', {
    params: { enable: 1, policy_in: 'DROP', macfilter: 0 },
  });
  expect(await data(sim, 'GET', '/nodes/pve1/qemu/101/firewall/options')).toMatchObject({
    enable: 1,
    policy_in: 'DROP',
    macfilter: 0,
  });
  await data(sim, 'PUT', '/nodes/pve1/qemu/101/firewall/options', { params: { delete: 'policy_in' } });
  expect(await data(sim, 'GET', '/nodes/pve1/qemu/101/firewall/options')).not.toHaveProperty('policy_in');
  const bad = await call(sim, 'PUT', '/nodes/pve1/qemu/101/firewall/options', {
    params: { policy_in: 'MAYBE' },
  });
  expect(bad.json.errors).toEqual({
    policy_in: "value 'MAYBE' does not have a value in the enumeration 'ACCEPT, REJECT, DROP'",
  });
});
