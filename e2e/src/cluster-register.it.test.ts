import { readMutations } from '@noderings/cli/simulated-host';
import { afterEach, describe, expect, it } from 'vitest';

import { AGENT_IP, registerArgs, startRegisterWorld, type RegisterWorld } from './register-world.js';

interface AgentList {
  agents: { agent: { id: string; name: string; provisioned: boolean; inboundPeeringState: string } }[];
}

let world: RegisterWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('nr cluster register on a simulated host', () => {
  it('turns a plain host into a provisioned, peered agent with its platform and nodes, and deregister removes it all', async () => {
    world = await startRegisterWorld();
    const w = world;
    const register = await w.nr([...registerArgs(w), '--output', 'json']);
    expect(register.stderr).toMatch(/\[OK\] \[9\/9\] Verify: done in/);
    expect(register.code).toBe(0);
    const report = JSON.parse(register.stdout) as {
      agent_id: string;
      phases: { name: string; outcome: string; duration_ms: number }[];
    };
    expect(report.phases.map((p) => [p.name, p.outcome])).toEqual([
      ['versions', 'ran'],
      ['prechecks', 'ran'],
      ['agent', 'ran'],
      ['k3s', 'ran'],
      ['calico', 'ran'],
      ['stack', 'ran'],
      ['inbound_peering', 'ran'],
      ['platform', 'ran'],
      ['verify', 'ran'],
    ]);
    // Every phase says how long it took.
    expect(register.stderr.match(/: done in [\d.]+ m?s/g)).toHaveLength(9);

    const { agents } = await w.api.call<AgentList>('GET', '/v1/agents', 200, { as: w.provider });
    expect(agents.map((a) => a.agent)).toEqual([
      expect.objectContaining({
        id: report.agent_id,
        name: 'agent-a',
        provisioned: true,
        inboundPeeringState: 'INBOUND_PEERING_STATE_READY',
      }),
    ]);
    const { platforms } = await w.api.call<{
      platforms: { id: string; endpointUrl: string; agentId: string }[];
    }>('GET', '/v1/platforms', 200, { as: w.provider });
    expect(platforms).toEqual([
      expect.objectContaining({ endpointUrl: w.pve.url, agentId: report.agent_id }),
    ]);
    const { nodes } = await w.api.call<{ nodes: { node: { name: string; vmStorageDestination: string } }[] }>(
      'GET',
      `/v1/nodes?platformId=${platforms[0]?.id ?? ''}`,
      200,
      { as: w.provider },
    );
    // The Proxmox nodes as pve-sim lists them: nobody typed a node name.
    expect(nodes.map((n) => n.node.name).sort()).toEqual(['pve1', 'pve2']);

    const verify = await w.nr(['cluster', 'verify', '--output', 'json']);
    expect(verify.code).toBe(0);
    const verified = JSON.parse(verify.stdout) as {
      agent_id: string;
      sections: {
        name: string;
        checks: { section: string; name: string; status: string; message: string }[];
      }[];
    };
    expect(verified.agent_id).toBe(report.agent_id);
    expect(verified.sections.map((s) => s.name)).toEqual([
      'kubernetes',
      'calico',
      'agent',
      'operator',
      'platform',
    ]);
    for (const section of verified.sections)
      for (const check of section.checks) {
        expect(check).toEqual({
          section: section.name,
          name: expect.any(String),
          status: expect.stringMatching(/^(pass|warn|skip)$/),
          message: expect.any(String),
        });
      }

    const status = await w.nr(['cluster', 'status', '--output', 'json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toEqual(
      expect.objectContaining({
        phase: 'complete',
        agent_id: report.agent_id,
        agent_name: 'agent-a',
        api_reachable: true,
        k3s_installed: true,
        calico_ok: true,
        operator_ok: true,
        peering_summary: 'INBOUND_PEERING_STATE_READY',
        last_error: null,
        seed_phases_not_run: ['liqo', 'peering', 'offloading'],
      }),
    );

    const health = await w.nr(['cluster', 'health', '--output', 'json']);
    expect(health.code).toBe(0);
    const components = JSON.parse(health.stdout) as { component: string; status: string; message: string }[];
    expect(components.map((c) => c.component)).toEqual([
      'k3s',
      'kubernetes-api',
      'node',
      'calico',
      'operator',
      'inbound-peering',
    ]);
    expect(components.every((c) => c.status !== 'unhealthy')).toBe(true);

    const deregister = await w.nr(['cluster', 'deregister', '--yes']);
    expect(deregister.code).toBe(0);
    expect((await w.api.call<AgentList>('GET', '/v1/agents', 200, { as: w.provider })).agents).toEqual([]);
    expect(
      (await w.api.call<{ platforms: unknown[] }>('GET', '/v1/platforms', 200, { as: w.provider })).platforms,
    ).toEqual([]);
    const namespaces = await kubectlNames(w, ['get', 'namespaces']);
    expect(namespaces).not.toContain('proxmox-system');
    expect(namespaces).not.toContain(`${report.agent_id}-operator`);
    const crds = await kubectlNames(w, ['get', 'crds']);
    expect(crds.filter((name) => name.endsWith('.vm.noderings.com'))).toEqual([]);
    const after = await w.nr(['cluster', 'status', '--name', 'agent-a']);
    expect(after.code).toBe(2);
    expect(after.stderr).toContain('no cluster named agent-a has been registered');
  }, 180_000);
});

/** Names of what kubectl lists on the simulated host's k3s (which deregister without --uninstall-k3s keeps). */
async function kubectlNames(w: RegisterWorld, args: string[]): Promise<string[]> {
  const { execFile } = await import('node:child_process');
  const list = await new Promise<{ items: { metadata: { name: string } }[] }>((resolve, reject) => {
    execFile(
      'kubectl',
      ['--kubeconfig', `${w.hostRoot}/etc/rancher/k3s/k3s.yaml`, ...args, '-o', 'json'],
      (e, out) => {
        if (e) reject(e);
        else resolve(JSON.parse(out) as { items: { metadata: { name: string } }[] });
      },
    );
  });
  return list.items.map((i) => i.metadata.name);
}
