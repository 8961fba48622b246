import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { renderAgentStack, toYaml } from '@noderings/deploy';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { startK3sSim, type K3sSim } from './k3s-sim.js';
import { kubectlApply, waitAvailable } from './k3s-sim.test-support.js';

const AGENT = '7d2c9e4a-1b3f-4c5d-8e6f-9a0b1c2d3e4f';

describe('the pod runner, with the agent stack applied by kubectl', () => {
  let root: string;
  let k3s: K3sSim | undefined;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'k3s-sim-'));
    k3s = await startK3sSim({ root, nodeIp: '10.0.0.10', nodeName: 'agent-1', version: 'v1.34.2+k3s1' });
  });
  afterEach(async () => {
    await k3s?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('runs the operator, and its Deployment becomes available', async () => {
    if (k3s === undefined) throw new Error('k3s-sim did not start');
    const stack = renderAgentStack({
      agentId: AGENT,
      image: 'registry.example/noderings/proxmox-operator:1.0.0',
    });
    await kubectlApply(k3s.layout, toYaml(stack));
    const deployment = await waitAvailable(k3s.layout, 'proxmox-system', 'proxmox-operator', 60_000);
    expect(deployment.status?.conditions).toContainEqual(
      expect.objectContaining({ type: 'Available', status: 'True', message: 'serving' }),
    );
  }, 90_000);
});
