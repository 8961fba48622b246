import { readMutations } from '@noderings/cli/simulated-host';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { AGENT_IP, registerArgs, startRegisterWorld, type RegisterWorld } from './register-world.js';

interface AgentList {
  agents: { agent: { id: string; name: string; provisioned: boolean; inboundPeeringState: string } }[];
}

const run = promisify(execFile);

let world: RegisterWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** One world for the tests that change nothing in it. */
let shared: Promise<RegisterWorld> | undefined;
const sharedWorld = () => (shared ??= startRegisterWorld());
afterAll(async () => {
  await (await shared)?.close();
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
        expect(Object.keys(check)).toEqual(['section', 'name', 'status', 'message']);
        expect(check.section).toBe(section.name);
        expect(['pass', 'warn', 'skip']).toContain(check.status);
        expect(check.message).not.toBe('');
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
        seed_phases_not_run: ['5 Liqo', '6 Outbound peer', '7 Offloading'],
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

describe('nr cluster register, refusing', () => {
  it('refuses a second agent on a host whose k3s another register installed, until that one is deregistered with k3s', async () => {
    world = await startRegisterWorld();
    const w = world;
    const first = await w.nr([
      'cluster',
      'register',
      '--name',
      'agent-a',
      '--agent-ip',
      AGENT_IP,
      '--skip-operator-install',
    ]);
    expect(first.code, first.stderr).toBe(0);
    const second = await w.nr([
      'cluster',
      'register',
      '--name',
      'agent-b',
      '--agent-ip',
      AGENT_IP,
      '--skip-operator-install',
    ]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(
      'was installed for agent agent-a (', // …its id), then the remedy:
    );
    expect(second.stderr).toContain('nr cluster deregister --name agent-a --uninstall-k3s');
    const agents = (await w.api.call<AgentList>('GET', '/v1/agents', 200, { as: w.provider })).agents;
    expect(agents.map((a) => a.agent.name)).toEqual(['agent-a']);

    const deregister = await w.nr(['cluster', 'deregister', '--name', 'agent-a', '--uninstall-k3s', '--yes']);
    expect(deregister.code, deregister.stderr).toBe(0);
    expect(existsSync(join(w.hostRoot, 'usr/local/bin/k3s'))).toBe(false);
    expect(existsSync(join(w.hostRoot, 'etc/rancher/k3s'))).toBe(false);
    expect(existsSync(join(w.hostRoot, 'etc/systemd/system/k3s.service'))).toBe(false);
    const again = await w.nr([
      'cluster',
      'register',
      '--name',
      'agent-b',
      '--agent-ip',
      AGENT_IP,
      '--skip-operator-install',
      '--output',
      'json',
    ]);
    expect(again.code, again.stderr).toBe(0);
    const names = (await w.api.call<AgentList>('GET', '/v1/agents', 200, { as: w.provider })).agents.map(
      (a) => a.agent.name,
    );
    expect(names).toEqual(['agent-b']);
  }, 180_000);

  it('--dry-run prints every phase and host command and changes nothing', async () => {
    world = await startRegisterWorld();
    const w = world;
    const dry = await w.nr([...registerArgs(w), '--dry-run', '--output', 'json']);
    expect(dry.code, dry.stderr).toBe(0);
    const report = JSON.parse(dry.stdout) as {
      dry_run: boolean;
      phases: { name: string; outcome: string; plan?: string[] }[];
    };
    expect(report.dry_run).toBe(true);
    expect(report.phases.map((p) => p.outcome)).toEqual(Array(9).fill('planned'));
    expect(dry.stderr).toContain(
      '$ sudo k3s kubectl apply --server-side --field-manager=nr --force-conflicts -f - < (stdin)',
    );
    expect(dry.stderr).toContain('--node-ip=192.0.2.20');
    expect(dry.stderr).toContain('POST /v1/agents');
    // Nothing happened: no mutation of the host, no agent, no state file.
    expect(await readMutations(w.hostRoot)).toEqual([]);
    expect((await w.api.call<AgentList>('GET', '/v1/agents', 200, { as: w.provider })).agents).toEqual([]);
    expect(existsSync(join(w.configDir, 'clusters'))).toBe(false);
    expect(existsSync(join(w.configDir, 'platform-versions.json'))).toBe(false);
    expect(existsSync(join(w.configDir, 'bin'))).toBe(false);
  }, 60_000);

  it('stops at the prechecks a host fails, saying what it found and what is needed, before any change', async () => {
    world = await startRegisterWorld({
      facts: {
        memoryBytes: 2 * 1024 ** 3,
        busyPorts: [{ port: 6443, protocol: 'tcp' }],
        osRelease: { id: 'debian', versionId: '12', prettyName: 'Debian GNU/Linux 12 (bookworm)' },
      },
    });
    const w = world;
    const run = await w.nr(registerArgs(w));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/\[FAIL\] memory: 2 GiB found, 4 GiB needed/);
    expect(run.stderr).toMatch(/\[FAIL\] port 6443\/tcp: .*in use/);
    expect(run.stderr).toMatch(
      /\[FAIL\] os: Debian GNU\/Linux 12 \(bookworm\) found, Ubuntu 22.04 or newer needed/,
    );
    expect(run.stderr).toMatch(/\[OK\] cpu: /);
    expect(run.stderr).toContain('3 prechecks failed (os, memory, port 6443/tcp)');
    expect(await readMutations(w.hostRoot)).toEqual([]);
    expect((await w.api.call<AgentList>('GET', '/v1/agents', 200, { as: w.provider })).agents).toEqual([]);
    // --skip-prechecks goes past them (to the agent record and beyond): here only the plan is asked for.
    const skipped = await w.nr([...registerArgs(w), '--skip-prechecks', '--dry-run']);
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toContain('[WARN] [2/9] Prechecks: skipped (--skip-prechecks)');
  }, 60_000);

  it.each([
    [['cluster', 'register', '--agent-ip', AGENT_IP], '--name is required'],
    [['cluster', 'register', '--name', 'a', '--agent-ip', '10.0.0'], '--agent-ip must be an IPv4 address'],
    [
      ['cluster', 'register', '--name', 'Bad_Name', '--agent-ip', AGENT_IP, '--skip-operator-install'],
      '--name must be a DNS label',
    ],
    [['cluster', 'register', '--name', 'a', '--agent-ip', AGENT_IP], '--proxmox-instances-file is required'],
    [
      [
        'cluster',
        'register',
        '--name',
        'a',
        '--agent-ip',
        AGENT_IP,
        '--skip-operator-install',
        '--reinstall-operator',
      ],
      '--reinstall-operator goes with --resume',
    ],
    [['cluster', 'register', '--name', 'a', '--resume', '--bogus'], "Unknown option '--bogus'"],
    [
      [
        'cluster',
        'register',
        '--name',
        'a',
        '--agent-ip',
        AGENT_IP,
        '--skip-operator-install',
        '--api-server-url',
        'http://x',
      ],
      '--api-server-url must be https://',
    ],
    [['cluster', 'logs', '--lines', '0'], '--lines must be a whole number'],
    [
      ['cluster', 'verify', '--section', 'liqo'],
      '--section must be one of kubernetes, calico, agent, operator, platform',
    ],
  ])('exits 2 with the usage on bad flags: %j', async (argv, message) => {
    const w = await sharedWorld();
    const run = await w.nr(argv);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain('usage: nr');
    expect(await readMutations(w.hostRoot)).toEqual([]);
  });
});

/** Names of what kubectl lists on the simulated host's k3s (which deregister without --uninstall-k3s keeps). */
async function kubectlNames(w: RegisterWorld, args: string[]): Promise<string[]> {
  const { stdout } = await run('kubectl', [
    '--kubeconfig',
    `${w.hostRoot}/etc/rancher/k3s/k3s.yaml`,
    ...args,
    '-o',
    'json',
  ]);
  return (JSON.parse(stdout) as { items: { metadata: { name: string } }[] }).items.map(
    (i) => i.metadata.name,
  );
}
