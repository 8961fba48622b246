import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { readMutations } from '@noderings/cli/simulated-host';
import { afterEach, describe, expect, it } from 'vitest';

import { registerArgs, startRegisterWorld, type RegisterWorld } from './register-world.js';

const run = promisify(execFile);

/** The phases' titles as register prints them (`[3/9] Agent record…`). */
const TITLES = [
  'Versions and downloads',
  'Prechecks',
  'Agent record',
  'k3s',
  'Calico',
  'Agent stack',
  'Inbound peering',
  'Platform and nodes',
  'Verify',
];

let world: RegisterWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** What a converged register leaves, whatever the kills before it: one of everything. */
async function expectOneOfEverything(w: RegisterWorld): Promise<void> {
  const { agents } = await w.api.call<{ agents: { agent: { id: string; provisioned: boolean } }[] }>(
    'GET',
    '/v1/agents',
    200,
    {
      as: w.provider,
    },
  );
  expect(agents).toHaveLength(1);
  expect(agents[0]?.agent.provisioned).toBe(true);
  const { platforms } = await w.api.call<{ platforms: { id: string }[] }>('GET', '/v1/platforms', 200, {
    as: w.provider,
  });
  expect(platforms).toHaveLength(1);
  const { nodes } = await w.api.call<{ nodes: unknown[] }>('GET', '/v1/nodes', 200, { as: w.provider });
  expect(nodes).toHaveLength(2);
  // One write credential for the agent's Alloy: a lost one is rotated, never a second minted.
  const { credentials } = await w.api.call<{ credentials: unknown[] }>(
    'GET',
    `/v1/metrics-credentials?agentId=${agents[0]?.agent.id ?? ''}`,
    200,
    { as: w.provider },
  );
  expect(credentials).toHaveLength(1);
  // k3s was written and started once: no kill made register install it again.
  const mutations = await readMutations(w.hostRoot);
  expect(
    mutations.filter((m) => m.kind === 'write' && m.detail.startsWith('/usr/local/bin/k3s ')),
  ).toHaveLength(1);
  expect(mutations.filter((m) => m.kind === 'start-service')).toHaveLength(1);
  const kubeconfig = join(w.hostRoot, 'etc/rancher/k3s/k3s.yaml');
  const { stdout } = await run('kubectl', [
    '--kubeconfig',
    kubeconfig,
    'get',
    'deployments',
    '-A',
    '-o',
    'json',
  ]);
  const names = (
    JSON.parse(stdout) as { items: { metadata: { namespace: string; name: string } }[] }
  ).items.map((d) => `${d.metadata.namespace}/${d.metadata.name}`);
  expect(names.sort()).toEqual([
    'proxmox-system/alloy',
    'proxmox-system/proxmox-operator',
    'proxmox-system/pve-exporter',
    'tigera-operator/tigera-operator',
  ]);
  const state = JSON.parse(await readFile(join(w.configDir, 'clusters/agent-a/state.json'), 'utf8')) as {
    phase: string;
    agent_id: string;
    checkpoints: { phase: string; status: string }[];
  };
  expect(state.phase).toBe('complete');
  expect(state.agent_id).toBe(agents[0]?.agent.id);
  expect(state.checkpoints.map((c) => c.status)).toEqual(Array(9).fill('success'));
}

/**
 * Kills nr once per phase, where `marker(i)` appears on stderr, resuming each time, until a resume runs
 * through; each run after the first is `--resume`.
 */
async function killAndResumeAcrossPhases(
  w: RegisterWorld,
  marker: (title: string, i: number) => string,
): Promise<void> {
  for (const [i, title] of TITLES.entries()) {
    const first = i === 0;
    const args = first ? registerArgs(w) : ['cluster', 'register', '--name', 'agent-a', '--resume'];
    const killed = await w.nr(args, { killWhen: (stderr) => stderr.includes(marker(title, i)) });
    expect(
      killed.signal,
      `run ${String(i + 1)} was to be killed at ${marker(title, i)}:\n${killed.stderr}`,
    ).toBe('SIGKILL');
  }
  const resumed = await w.nr(['cluster', 'register', '--name', 'agent-a', '--resume']);
  expect(resumed.code, resumed.stderr).toBe(0);
}

describe('nr cluster register killed and resumed', () => {
  it('converges after a SIGKILL at every phase boundary', async () => {
    world = await startRegisterWorld();
    await killAndResumeAcrossPhases(world, (title, i) => `[${String(i + 1)}/9] ${title}: done in`);
    await expectOneOfEverything(world);
  }, 240_000);

  it('converges after a SIGKILL in the middle of every phase', async () => {
    world = await startRegisterWorld();
    await killAndResumeAcrossPhases(world, (title, i) => `[${String(i + 1)}/9] ${title}…`);
    await expectOneOfEverything(world);
  }, 240_000);
});
