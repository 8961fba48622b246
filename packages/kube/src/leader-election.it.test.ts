import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './eventually.test-support.js';
import type { Fixture } from './kube-sim-fixture.test-support.js';
import { startFixture } from './kube-sim-fixture.test-support.js';

// tsx as a loader rather than its CLI: the CLI runs the script in a grandchild process, which a SIGKILL
// of the CLI would leave running (and leading).
const TSX_LOADER = new URL('../../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const CANDIDATE = fileURLToPath(new URL('./leader-candidate.test-support.ts', import.meta.url));

interface Replica {
  identity: string;
  child: ChildProcess;
  output: () => string;
}

let fx: Fixture;
let kubeconfigPath: string;
const replicas: Replica[] = [];

function startReplica(identity: string): Replica {
  const child = spawn(
    process.execPath,
    ['--import', TSX_LOADER, CANDIDATE, kubeconfigPath, fx.namespace, identity],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const replica = { identity, child, output: () => out };
  replicas.push(replica);
  return replica;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
}

beforeAll(async () => {
  fx = await startFixture();
  kubeconfigPath = join(mkdtempSync(join(tmpdir(), 'kube-leader-')), 'kubeconfig');
  await fx.sim.writeKubeconfig(kubeconfigPath);
});

afterAll(async () => {
  for (const { child } of replicas) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  await Promise.all(replicas.map(({ child }) => exited(child)));
  await fx.close();
});

describe('LeaderElector with two processes on one Lease', () => {
  it('lets exactly one lead, and the other take over when the leader is killed', async () => {
    const a = startReplica('replica-a');
    const b = startReplica('replica-b');
    const leader = await eventually(() => {
      const leading = [a, b].filter((r) => r.output().includes('LEADING'));
      const [only, ...others] = leading;
      if (only === undefined || others.length > 0) throw new Error(`${leading.length} replicas lead`);
      return only;
    }, 20_000);
    const follower = leader === a ? b : a;

    const lease = await fx.client.leases.get({ namespace: fx.namespace, name: 'proxmox-operator' });
    expect(lease.spec?.holderIdentity).toBe(leader.identity);
    expect(lease.spec?.leaseDurationSeconds).toBe(3);

    leader.child.kill('SIGKILL');
    await exited(leader.child);
    await eventually(() => {
      expect(follower.output()).toContain(`LEADING ${follower.identity}`);
    }, 20_000);

    const taken = await fx.client.leases.get({ namespace: fx.namespace, name: 'proxmox-operator' });
    expect(taken.spec?.holderIdentity).toBe(follower.identity);
    expect(taken.spec?.leaseTransitions).toBe(1);

    // A graceful stop hands the Lease back at once instead of letting it run out.
    follower.child.kill('SIGTERM');
    await exited(follower.child);
    expect(follower.output()).toContain(`RELEASED ${follower.identity}`);
    const released = await fx.client.leases.get({ namespace: fx.namespace, name: 'proxmox-operator' });
    expect(released.spec?.holderIdentity).toBe('');
  });
});
