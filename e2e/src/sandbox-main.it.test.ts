import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const TSX_LOADER = pathToFileURL(fileURLToPath(new URL('node_modules/tsx/dist/loader.mjs', ROOT))).href;
const MAIN = fileURLToPath(new URL('e2e/src/sandbox-main.ts', ROOT));
const START_TIMEOUT_MS = 90_000;
const ANY_PORT = '127.0.0.1:0';

/** `npm start` as it runs, but with tsx's loader so that the child is the sandbox itself and gets the signal. */
function sandboxProcess(args: readonly string[]): {
  child: ChildProcessByStdio<null, Readable, Readable>;
  output: () => string;
} {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, MAIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return { child, output: () => output };
}

function exitCode(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return once(child, 'exit').then(([code]) => code as number | null);
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
    'prints where the control plane listens, serves it, and stops with status 0 on SIGTERM',
    async () => {
      const run = sandboxProcess([
        '--listen',
        ANY_PORT,
        '--pve-listen',
        ANY_PORT,
        '--kube-listen',
        ANY_PORT,
        '--data-dir',
        join(dataDir, 'sandbox'),
      ]);
      try {
        await new Promise<void>((resolve, reject) => {
          run.child.stdout.on('data', () => {
            if (run.output().includes('Ctrl-C to stop')) resolve();
          });
          run.child.on('exit', (code) => {
            reject(new Error(`the sandbox exited with ${String(code)}: ${run.output()}`));
          });
        });
        const url = /control plane (http:\/\/127\.0\.0\.1:(\d+))/.exec(run.output());
        expect(url?.[2]).not.toBe('0');
        const ready = await fetch(`${url?.[1] ?? ''}/readyz`);
        expect(ready.status).toBe(200);
        expect(run.output()).toContain(`${url?.[1] ?? ''}/openapi.json`);
        expect(run.output()).toContain('emptied at every start');
        expect(run.output()).toMatch(/provider +provider@sandbox\.test +\S{10,} +organization [0-9a-f-]{36}/);
        // The admin kubeconfig it points at reaches the simulated agent cluster.
        const kubeconfig = await readFile(join(dataDir, 'sandbox', 'kubeconfig.yaml'), 'utf8');
        expect(kubeconfig).toContain(/kube-sim +(https:\/\/\S+)/.exec(run.output())?.[1]);

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
