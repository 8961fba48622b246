import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ProxmoxVM } from '@noderings/kube';
import { keyOf, parseObjectKey } from '@noderings/kube';
import type { GuestResource, ProxmoxClient } from '@noderings/proxmox';

import type { Env } from './operator-fixture.test-support.js';
import {
  callsMatching,
  createVm,
  eventually,
  OPERATOR_NAMESPACE_FLAGS,
  proxmoxClientFor,
  startEnv,
} from './operator-fixture.test-support.js';

// A property users rely on (docs/architecture.md): an operator SIGKILLed at random moments while VMs are created and deleted
// converges after a restart, with no duplicate, no orphan, no leftover and nothing foreign touched.
// The seed decides the workload and the moments of the kills; `CRASH_SEED=N` replays its choices
// (the interleaving with the processes' own timing cannot be replayed exactly).

// tsx as a loader rather than its CLI: the CLI runs the operator in a grandchild that a SIGKILL of the
// CLI would leave running.
const TSX_LOADER = new URL('../../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const NODES = 3;
const TASK_MS = 30;
const VM_COUNT = 100;
const DELETED_EARLY = 10;
const DELETED_LATE = 20;
const KILLS = 6;
const FIRST_VMID = 3000;
const CONVERGE_MS = 150_000;
const TEST_MS = 240_000;
const STARTUP_MS = 30_000;

interface Operator {
  child: ChildProcess;
  output: () => string;
}

interface PlannedVm {
  index: number;
  node: string;
  cores: number;
  memoryMiB: number;
  /** Pause after creating it, before the next one. */
  gapMs: number;
  /** When set, the VM is deleted this long after it was created. */
  deleteAfterMs?: number;
}

interface Plan {
  vms: PlannedVm[];
  /** Time each operator runs after it announced its start, before it is killed. */
  killAfterMs: number[];
}

let env: Env;
let pve: ProxmoxClient;
let workDir: string;
let kubeconfigPath: string;
const operators: Operator[] = [];

beforeAll(async () => {
  env = await startEnv({ taskMs: TASK_MS, nodes: NODES });
  pve = proxmoxClientFor(env);
  workDir = mkdtempSync(join(tmpdir(), 'operator-crash-'));
  kubeconfigPath = join(workDir, 'kubeconfig');
  await env.kubeSim.writeKubeconfig(kubeconfigPath);
});

afterAll(async () => {
  for (const { child } of operators) {
    if (isAlive(child)) child.kill('SIGKILL');
  }
  await Promise.all(operators.map(({ child }) => exited(child)));
  await pve.close();
  await env.close();
  rmSync(workDir, { recursive: true, force: true });
});

/** A deterministic generator of numbers in [0, 1) (xorshift32). */
function randomSource(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 2 ** 32;
  };
}

function makePlan(seed: number): Plan {
  const random = randomSource(seed);
  const between = (min: number, max: number): number => Math.floor(min + random() * (max - min));
  const order = Array.from({ length: VM_COUNT }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = between(0, i + 1);
    [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
  }
  const early = new Set(order.slice(0, DELETED_EARLY));
  const late = new Set(order.slice(DELETED_EARLY, DELETED_EARLY + DELETED_LATE));
  const vms = Array.from({ length: VM_COUNT }, (_, index): PlannedVm => {
    const vm: PlannedVm = {
      index,
      node: `pve${between(1, NODES + 1)}`,
      cores: between(1, 5),
      memoryMiB: 512 * between(1, 5),
      gapMs: between(0, 300),
    };
    if (early.has(index)) vm.deleteAfterMs = between(0, 100);
    if (late.has(index)) vm.deleteAfterMs = between(200, 10_000);
    return vm;
  });
  return { vms, killAfterMs: Array.from({ length: KILLS }, () => between(500, 3_000)) };
}

function isAlive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function exited(child: ChildProcess): Promise<void> {
  if (!isAlive(child)) return Promise.resolve();
  return new Promise((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function startOperatorProcess(): Operator {
  const child = spawn(
    process.execPath,
    [
      '--import',
      TSX_LOADER,
      MAIN,
      '--kubeconfig',
      kubeconfigPath,
      ...OPERATOR_NAMESPACE_FLAGS,
      '--no-leader-election',
      '--metrics-listen',
      '127.0.0.1:0',
      '--workers',
      '8',
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const operator = { child, output: () => out };
  operators.push(operator);
  return operator;
}

async function started(operator: Operator): Promise<void> {
  await eventually(
    () => {
      if (!isAlive(operator.child)) throw new Error(`operator exited early:\n${operator.output()}`);
      if (!operator.output().includes('"operator started"')) throw new Error('operator not started yet');
    },
    STARTUP_MS,
    50,
  );
}

function countLines(operator: Operator, msg: string): number {
  return operator
    .output()
    .split('\n')
    .filter((line) => line.includes(`"msg":"${msg}"`)).length;
}

/** Creates the planned VMs one after another and deletes the chosen ones after their delays. */
async function runWorkload(plan: Plan): Promise<ProxmoxVM[]> {
  const created: ProxmoxVM[] = [];
  const deletions: Promise<void>[] = [];
  for (const p of plan.vms) {
    const vm = await createVm(env, (v) => {
      v.spec.node = p.node;
      v.spec.vmid = FIRST_VMID + p.index;
      v.spec.templateVmid = 9000 + 2 * (Number(p.node.slice(3)) - 1);
      v.spec.cpu.cores = p.cores;
      v.spec.memoryMiB = p.memoryMiB;
      v.spec.disk.sizeGiB = 10;
    });
    created.push(vm);
    if (p.deleteAfterMs !== undefined) {
      deletions.push(sleep(p.deleteAfterMs).then(() => env.kube.proxmoxVMs.delete(refOf(vm))));
    }
    await sleep(p.gapMs);
  }
  await Promise.all(deletions);
  return created;
}

interface Kill {
  atMs: number;
  clonesStarted: number;
  guestsDestroyed: number;
}

/** Kills the running operator with SIGKILL after each planned delay and starts a new one. */
async function runChaos(plan: Plan, t0: number): Promise<{ kills: Kill[]; last: Operator }> {
  const kills: Kill[] = [];
  let operator = startOperatorProcess();
  for (const delay of plan.killAfterMs) {
    await started(operator);
    await sleep(delay);
    operator.child.kill('SIGKILL');
    await exited(operator.child);
    kills.push({
      atMs: Date.now() - t0,
      clonesStarted: countLines(operator, 'clone started'),
      guestsDestroyed: countLines(operator, 'guest destroyed'),
    });
    operator = startOperatorProcess();
  }
  return { kills, last: operator };
}

const refOf = (vm: ProxmoxVM) => parseObjectKey(keyOf(vm));

async function guests(): Promise<GuestResource[]> {
  return (await pve.getClusterResources('vm')).filter(
    (r): r is GuestResource => r.type === 'qemu' || r.type === 'lxc',
  );
}

interface Snapshot {
  config: unknown;
  status: string;
}

/** Config and power state of every guest that is not ours, to prove later that none was touched. */
async function foreignSnapshot(): Promise<Map<number, Snapshot>> {
  const snapshot = new Map<number, Snapshot>();
  for (const g of await guests()) {
    if (g.name?.startsWith('NR-') === true) continue;
    snapshot.set(g.vmid, {
      config: await pve.getVmConfig(g.node, g.vmid),
      status: (await pve.getVmStatus(g.node, g.vmid)).status,
    });
  }
  return snapshot;
}

/** Survivors Running with no task left; deleted objects gone, so their finalizers were removed. */
async function kubeProblems(
  survivors: readonly ProxmoxVM[],
  deleted: readonly ProxmoxVM[],
): Promise<string[]> {
  const problems: string[] = [];
  const namespace = survivors[0]?.metadata?.namespace ?? '';
  const objects = new Map(
    (await env.kube.proxmoxVMs.list(namespace)).items.map((v) => [v.metadata?.name ?? '', v]),
  );
  for (const vm of deleted) {
    if (objects.has(vm.metadata?.name ?? '')) problems.push(`deleted ${vm.spec.vmId} still in kube`);
  }
  for (const vm of survivors) {
    const status = objects.get(vm.metadata?.name ?? '')?.status;
    if (status?.phase !== 'Running' || status.taskRef !== undefined) {
      problems.push(`${vm.spec.vmId}: phase ${String(status?.phase)}, taskRef ${String(status?.taskRef)}`);
    }
  }

  return problems;
}

/** Everything that differs from the converged state; empty when the operator has converged. */
async function divergences(
  survivors: readonly ProxmoxVM[],
  deleted: readonly ProxmoxVM[],
  foreign: ReadonlyMap<number, Snapshot>,
): Promise<string[]> {
  const problems = await kubeProblems(survivors, deleted);
  const all = await guests();
  const wanted = new Map(survivors.map((vm) => [`NR-${vm.spec.vmId}`, vm]));
  const seen = new Map<string, number>();
  for (const g of all) {
    if (foreign.has(g.vmid)) continue;
    const name = g.name ?? `(unnamed ${g.vmid})`;
    seen.set(name, (seen.get(name) ?? 0) + 1);
    const vm = wanted.get(name);
    if (vm === undefined) {
      problems.push(`orphan guest ${name} at ${g.node}/${g.vmid}`);
      continue;
    }
    problems.push(...(await guestProblems(g, vm)));
  }
  for (const [name, count] of seen) if (count > 1) problems.push(`${count} guests named ${name}`);
  for (const name of wanted.keys()) if (!seen.has(name)) problems.push(`no guest ${name}`);

  problems.push(...(await foreignProblems(all, foreign)));
  problems.push(...(await seedProblems(survivors)));
  return problems;
}

/** Foreign guests (templates, `lab-N`) with the config and power state they had before. */
async function foreignProblems(
  all: readonly GuestResource[],
  foreign: ReadonlyMap<number, Snapshot>,
): Promise<string[]> {
  const problems: string[] = [];
  for (const [vmid, before] of foreign) {
    const g = all.find((r) => r.vmid === vmid);
    if (g === undefined) {
      problems.push(`foreign guest ${vmid} is gone`);
      continue;
    }
    const now: Snapshot = {
      config: await pve.getVmConfig(g.node, vmid),
      status: (await pve.getVmStatus(g.node, vmid)).status,
    };
    if (JSON.stringify(now) !== JSON.stringify(before)) problems.push(`foreign guest ${vmid} changed`);
  }
  return problems;
}

async function guestProblems(g: GuestResource, vm: ProxmoxVM): Promise<string[]> {
  const { spec } = vm;
  const where = `${g.name ?? ''} at ${g.node}/${g.vmid}`;
  if (g.node !== spec.node || g.vmid !== spec.vmid) return [`${where}: expected ${spec.node}/${spec.vmid}`];
  const config = await pve.getVmConfig(g.node, g.vmid);
  const problems: string[] = [];
  if (config.lock !== undefined || g.lock !== undefined)
    problems.push(`${where}: lock ${String(config.lock)}`);
  if (Number(config.cores) !== spec.cpu.cores) problems.push(`${where}: cores ${String(config.cores)}`);
  if (Number(config.memory) !== spec.memoryMiB) problems.push(`${where}: memory ${String(config.memory)}`);
  if (!String(config.net0).includes(`=${spec.network.mac.toUpperCase()},`)) {
    problems.push(`${where}: net0 ${String(config.net0)}`);
  }
  const power = (await pve.getVmStatus(g.node, g.vmid)).status;
  if (power !== 'running') problems.push(`${where}: ${power}`);
  return problems;
}

/** Exactly one seed ISO per surviving VM, on its node; none for deleted ones. */
async function seedProblems(survivors: readonly ProxmoxVM[]): Promise<string[]> {
  const problems: string[] = [];
  for (let n = 1; n <= NODES; n++) {
    const node = `pve${n}`;
    const isos = (await pve.getStorageContent(node, 'local', { content: 'iso' }))
      .map((v) => v.volid)
      .filter((volid) => volid.startsWith('local:iso/nr-'))
      .sort();
    const expected = survivors
      .filter((vm) => vm.spec.node === node)
      .map((vm) => `local:iso/nr-${vm.spec.vmId}-cloudinit.iso`)
      .sort();
    if (JSON.stringify(isos) !== JSON.stringify(expected)) {
      const extra = isos.filter((v) => !expected.includes(v));
      const missing = expected.filter((v) => !isos.includes(v));
      problems.push(`${node} seeds: extra ${extra.join(' ')}; missing ${missing.join(' ')}`);
    }
  }
  return problems;
}

describe('operator crash', () => {
  it(
    'converges after random SIGKILLs while 100 VMs are created and deleted',
    async () => {
      const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
      console.log(`operator crash test: CRASH_SEED=${seed}`);
      const plan = makePlan(seed);
      const foreign = await foreignSnapshot();
      const t0 = Date.now();

      const [created, chaos] = await Promise.all([runWorkload(plan), runChaos(plan, t0)]);
      const survivors = created.filter((_, i) => plan.vms[i]?.deleteAfterMs === undefined);
      const deleted = created.filter((_, i) => plan.vms[i]?.deleteAfterMs !== undefined);

      let problems: string[] = [];
      try {
        await eventually(
          async () => {
            problems = await divergences(survivors, deleted, foreign);
            if (problems.length > 0) throw new Error(problems.join('\n'));
          },
          CONVERGE_MS,
          1_000,
        );
      } catch (e: unknown) {
        if (problems.length === 0) throw e;
        const log = chaos.last.output().split('\n');
        console.log(
          `seed ${seed}, last operator's warnings:\n${log
            .filter((l) => /"level":"(warn|error)"/.test(l))
            .slice(-30)
            .join('\n')}`,
        );
      }
      const clones = await callsMatching(env, 'POST', /\/clone$/);
      console.log(
        `seed ${seed}: ${chaos.kills.length} kills ${JSON.stringify(chaos.kills)}, ` +
          `${clones.length} clone calls, converged after ${Date.now() - t0} ms`,
      );
      expect(problems).toEqual([]);
      expect(chaos.kills).toHaveLength(KILLS);
      expect(survivors).toHaveLength(VM_COUNT - DELETED_EARLY - DELETED_LATE);
    },
    TEST_MS,
  );
});
