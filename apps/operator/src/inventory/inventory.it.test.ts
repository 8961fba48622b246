import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ProxmoxInventory } from '@noderings/kube';
import { findCondition } from '@noderings/kube';

import type { Env } from '../operator-fixture.test-support.js';
import { createVm, eventually, startEnv } from '../operator-fixture.test-support.js';

let env: Env;

beforeAll(async () => {
  env = await startEnv();
  await env.startOperator({ inventoryRefreshMs: 200 });
});

afterAll(async () => {
  await env.close();
});

const NAMESPACE = '7d2c9e4a-1b3f-4c5d-8e6f-9a0b1c2d3e4f-operator';

async function inventory(): Promise<ProxmoxInventory | undefined> {
  return env.kube.proxmoxInventories.find({ namespace: NAMESPACE, name: 'default' });
}

describe('ProxmoxInventory', () => {
  it("lists Proxmox's nodes and the template VMIDs on each, and nothing of any other guest", async () => {
    const found = await eventually(async () => {
      const now = await inventory();
      expect(now?.status?.phase).toBe('Ready');
      return now;
    });
    expect(found?.spec).toEqual({ instance: 'default' });
    expect(found?.status?.nodes).toEqual([
      { name: 'pve1', online: true, templateVmids: [9000, 9001] },
      { name: 'pve2', online: true, templateVmids: [9002, 9003] },
      { name: 'pve3', online: true, templateVmids: [9004, 9005] },
    ]);
    expect(findCondition(found?.status?.conditions, 'Ready')?.status).toBe('True');
    // The lab guests (VMID 100-102, named lab-N) are not ours: nothing about them is published.
    const published = JSON.stringify(found);
    expect(published).not.toMatch(/lab-|\b10[0-2]\b|ubuntu|debian/);
  });

  it('stays true while our VMs come and go: a clone of a template is no template', async () => {
    const vm = await createVm(env);
    await eventually(async () => {
      expect(
        (await env.kube.proxmoxVMs.get({ namespace: NAMESPACE, name: vm.metadata?.name ?? '' })).status
          ?.phase,
      ).toBe('Running');
    });
    const observed = (await inventory())?.status?.observedAt;
    await eventually(async () => {
      const now = await inventory();
      expect(now?.status?.nodes?.find((n) => n.name === 'pve1')?.templateVmids).toEqual([9000, 9001]);
      expect(now?.status?.observedAt).toBe(observed);
    });
  });

  it('is deleted when the Proxmox instance it describes goes', async () => {
    await env.kube.secrets.delete({ namespace: 'proxmox-system', name: 'proxmox-default' });
    await eventually(async () => {
      expect(await inventory()).toBeUndefined();
    });
  });
});
