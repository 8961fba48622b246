import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { repoPath, TSX_LOADER } from './tsx-child.js';

const MAIN = repoPath('e2e/src/sandbox-main.ts');
const START_TIMEOUT_MS = 120_000;

interface Run {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  output(): string;
}

/** `npm start` as it runs, but with tsx's loader so that the child is the sandbox itself and gets the signal. */
function sandboxProcess(args: readonly string[]): Run {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, MAIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return { child, output: () => output };
}

/** The sandbox on free ports (`--port 0` frees every listener) with its data in `dataDir`. */
function startedOnFreePorts(dataDir: string): Run {
  return sandboxProcess(['--port', '0', '--data-dir', dataDir]);
}

/** Whether something listens on 127.0.0.1:port: binding it fails with EADDRINUSE. */
async function isBound(port: number): Promise<boolean> {
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
  } catch (e: unknown) {
    if ((e as { code?: string }).code === 'EADDRINUSE') return true;
    throw e;
  } finally {
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
  }
  return false;
}

/** A base port N such that N..N+count-1 are all free now. */
async function freePortRange(count: number): Promise<number> {
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 40_000);
    const ports = Array.from({ length: count }, (_, i) => base + i);
    if ((await Promise.all(ports.map(isBound))).every((bound) => !bound)) return base;
  }
}

function untilPrinted(run: Run, text: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const check = () => {
      if (run.output().includes(text)) resolve();
    };
    run.child.stdout.on('data', check);
    check();
    run.child.on('exit', (code) => {
      reject(new Error(`the sandbox exited with ${String(code)}: ${run.output()}`));
    });
  });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return once(child, 'exit').then(([code]) => code as number | null);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function untilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(pid) && Date.now() < deadline) await sleep(100);
  return !isRunning(pid);
}

function operatorPidOf(output: string): number {
  const pid = Number(/operator +pid (\d+)/.exec(output)?.[1]);
  expect(pid).toBeGreaterThan(0);
  return pid;
}

describe('npm start', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sandbox-main-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'prints where the control plane listens and the demo logins, serves it ready, and stops everything with status 0 on SIGTERM',
    async () => {
      const run = startedOnFreePorts(join(dataDir, 'sandbox'));
      try {
        await untilPrinted(run, 'Ctrl-C to stop');
        const url = /ready on (http:\/\/127\.0\.0\.1:(\d+))/.exec(run.output());
        expect(url?.[2]).not.toBe('0');
        const ready = await fetch(`${url?.[1] ?? ''}/readyz`);
        expect(ready.status).toBe(200);
        const output = run.output();
        expect(output).toContain(`${url?.[1] ?? ''}/openapi.json`);
        expect(output).toContain('seeded afresh in');
        expect(output).toMatch(/customer +customer@sandbox\.local +sandbox-password/);
        expect(output).toMatch(/provider +provider@sandbox\.local +sandbox-password/);
        expect(output).toMatch(/staff +staff@sandbox\.local +\S{10,}/);
        // One stream: the sandbox's progress and the operator's own lines, each with its prefix.
        expect(output).toContain('[sandbox] starting pve-sim');
        expect(output).toMatch(/\[operator\] info operator started/);
        // The admin kubeconfig it points at reaches the simulated agent cluster.
        const kubeconfig = await readFile(join(dataDir, 'sandbox', 'kubeconfig.yaml'), 'utf8');
        expect(kubeconfig).toContain(/kube-sim +(https:\/\/\S+)/.exec(output)?.[1]);
        const operator = operatorPidOf(output);
        expect(isRunning(operator)).toBe(true);

        run.child.kill('SIGTERM');
        expect(await exitCode(run.child)).toBe(0);
        expect(isRunning(operator)).toBe(false);
      } finally {
        if (run.child.exitCode === null) run.child.kill('SIGKILL');
      }
    },
    START_TIMEOUT_MS,
  );

  it(
    'takes its operator down with it when it is killed outright',
    async () => {
      const run = startedOnFreePorts(join(dataDir, 'killed'));
      let operator: number | undefined;
      try {
        await untilPrinted(run, 'Ctrl-C to stop');
        operator = operatorPidOf(run.output());
        run.child.kill('SIGKILL');
        await exitCode(run.child);
        expect(await untilGone(operator, 15_000)).toBe(true);
      } finally {
        if (run.child.exitCode === null) run.child.kill('SIGKILL');
        if (operator !== undefined && isRunning(operator)) process.kill(operator, 'SIGKILL');
      }
    },
    START_TIMEOUT_MS,
  );

  it(
    'moves every listener with one --port base, at the ports the usage documents',
    async () => {
      const base = await freePortRange(5);
      const run = sandboxProcess(['--port', String(base), '--data-dir', join(dataDir, 'ports')]);
      try {
        await untilPrinted(run, 'Ctrl-C to stop');
        const output = run.output();
        const at = (offset: number) => `127.0.0.1:${String(base + offset)}`;
        expect(output).toContain(`ready on http://${at(0)}`);
        expect(output).toMatch(new RegExp(`pve-sim +https://${at(1)}`));
        expect(output).toMatch(new RegExp(`kube-sim +https://${at(2)}`));
        expect(output).toMatch(new RegExp(`exporter +http://${at(3)}/pve`));
        expect(output).toMatch(new RegExp(`operator +pid \\d+, metrics on http://${at(4)}/metrics`));
        for (let offset = 0; offset < 5; offset++)
          expect(await isBound(base + offset), at(offset)).toBe(true);
        expect((await fetch(`http://${at(0)}/readyz`)).status).toBe(200);
        expect((await fetch(`http://${at(4)}/metrics`)).status).toBe(200);
        run.child.kill('SIGTERM');
        expect(await exitCode(run.child)).toBe(0);
      } finally {
        if (run.child.exitCode === null) run.child.kill('SIGKILL');
      }
    },
    START_TIMEOUT_MS,
  );

  it('exits 2 with the usage on bad flags', async () => {
    const runs = [
      ['--nodes', '5'],
      ['--listen', '8080'],
      ['--port', '99999'],
      ['--port', '8080', '--listen', '127.0.0.1:8080'],
      ['--pve-listen', 'localhost:99999'],
    ].map((args) => ({
      args,
      run: sandboxProcess(args),
    }));
    for (const { args, run } of runs) {
      expect(await exitCode(run.child), args.join(' ')).toBe(2);
      expect(run.output(), args.join(' ')).toContain('usage: npm start --');
    }
  });
});
