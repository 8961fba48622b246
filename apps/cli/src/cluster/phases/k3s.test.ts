import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ConfigStore } from '../../config-store.js';
import { FakeHost } from '../../host/fake-host.test-support.js';
import { Output } from '../../output.js';
import type { ClusterState } from '../cluster-state.js';
import type { RegisterContext } from '../phase.js';
import { k3sPhase } from './k3s.js';

const BINARY = 'the pinned k3s';
const READY_NODES = JSON.stringify({
  items: [{ metadata: { name: 'agent-1' }, status: { conditions: [{ type: 'Ready', status: 'True' }] } }],
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nr-k3s-phase-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function contextOn(host: FakeHost): Promise<RegisterContext> {
  const artifact = join(dir, 'k3s-download');
  await writeFile(artifact, BINARY);
  const state = {
    agent_name: 'fra-1',
    checkpoints: [],
    versions: {},
    register_scope: {},
  } as unknown as ClusterState;
  return {
    host,
    api: undefined as never,
    apiUrl: 'https://api.example.test',
    configDir: dir,
    store: new ConfigStore(dir),
    out: new Output(
      {
        env: {},
        homeDir: dir,
        stdout: () => undefined,
        stderr: () => undefined,
        stderrIsTty: false,
        prompt: undefined,
      },
      'text',
    ),
    input: {
      name: 'fra-1',
      agentIp: '203.0.113.7',
      gatewayRegion: 'AGENT_GATEWAY_REGION_AMS01',
      registerPlatform: false,
      force: false,
      skipPrechecks: false,
      skipOperatorInstall: false,
      reinstallOperator: false,
      offline: true,
      dryRun: false,
      resume: false,
    },
    state,
    say: () => undefined,
    sleep: () => Promise.resolve(),
    pins: {
      channel: 'test',
      components: [
        {
          name: 'k3s',
          version: 'v1.34.2+k3s1',
          downloadUrl: pathToFileURL(artifact).href,
          checksumSha256: createHash('sha256').update(BINARY).digest('hex'),
        },
      ],
    },
  };
}

describe('the k3s phase', () => {
  it('writes the pinned binary, installs our unit with the exact k3s server line, starts it and waits for a Ready node', async () => {
    const host = new FakeHost();
    host.answer = (command) => {
      const line = command.argv.join(' ');
      if (line === 'sha256sum /usr/local/bin/k3s') {
        const file = host.files.get('/usr/local/bin/k3s');
        return file === undefined
          ? { exitCode: 1, stderr: 'sha256sum: /usr/local/bin/k3s: No such file or directory' }
          : { stdout: `${createHash('sha256').update(file.content).digest('hex')}  /usr/local/bin/k3s\n` };
      }
      if (line === 'k3s kubectl get nodes -o json') return { stdout: READY_NODES };
      if (line === 'k3s --version') return { stdout: 'k3s version v1.34.2+k3s1 (abc)\n' };
      return { exitCode: 1, stderr: `unexpected: ${line}` };
    };
    const ctx = await contextOn(host);
    expect(await k3sPhase.isDone(ctx)).toBe(false);
    await k3sPhase.run(ctx);

    expect(host.files.get('/usr/local/bin/k3s')).toEqual({ content: Buffer.from(BINARY), mode: 0o755 });
    expect(host.services.get('k3s')?.unit).toEqual({
      name: 'k3s',
      description: 'Lightweight Kubernetes (k3s), installed by nr',
      type: 'notify',
      execStart: [
        '/usr/local/bin/k3s',
        'server',
        '--node-ip=203.0.113.7',
        '--node-external-ip=203.0.113.7',
        '--flannel-backend=none',
        '--disable-network-policy',
        '--disable=traefik',
        '--cluster-cidr=10.42.0.0/16',
        '--service-cidr=10.43.0.0/16',
        '--write-kubeconfig-mode=0600',
      ],
    });
    expect(host.services.get('k3s')?.state).toBe('active');
    // kubectl runs as root: k3s' kubeconfig is root's alone.
    expect(host.commands.filter((c) => c.argv[1] === 'kubectl').every((c) => c.asRoot === true)).toBe(true);
    expect(ctx.state.versions.k3s).toBe('v1.34.2+k3s1');
    expect(await k3sPhase.isDone(ctx)).toBe(true);
  });
});
