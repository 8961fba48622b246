import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { call, type Reply } from './kubelet-test-client.js';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../..', import.meta.url));

const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'kubelet-sim-command-'));
  dirs.push(dir);
  return dir;
}

function run(args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return { child, output: () => output };
}

/** Starts the command and waits until it prints the URL it listens on. */
async function serve(args: string[]): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const { child, output } = run(['--listen', '127.0.0.1:0', ...args]);
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', () => {
      const m = /listening on (https:\/\/127\.0\.0\.1:\d+)/.exec(output());
      if (m?.[1] && output().includes('try: curl')) resolve(m[1]);
    });
    child.once('exit', (code) => {
      reject(new Error(`kubelet-sim exited with ${code ?? 'a signal'}: ${output()}`));
    });
  });
  return { child, url, output };
}

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

it('exits 2 with the usage on bad flags or a missing recording', async () => {
  for (const args of [
    ['--pods', 'lots'],
    ['--recorded', '/does/not/exist'],
  ]) {
    const { child, output } = run(args);
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(2);
    expect(output()).toContain('Usage: npm run kubelet-sim -- [options]');
  }
});

it('serves /healthz with the certificate it wrote, takes rotated tokens from its token file, and stops on SIGTERM', async () => {
  const dir = await tempDir();
  const caFile = join(dir, 'kubelet-ca.pem');
  const tokenFile = join(dir, 'token');
  await writeFile(tokenFile, 'first-token\n');
  const { child, url, output } = await serve([
    '--pods',
    '5',
    '--node-name',
    'cli-node',
    '--ca-out',
    caFile,
    '--token-file',
    tokenFile,
    '--fault',
    '/pods=503',
  ]);
  expect(output()).toContain('kubelet simulator for node cli-node (5 pods)');
  const target = { url, caPem: await readFile(caFile, 'utf8') };
  expect(await call(target, '/healthz', { token: 'first-token' })).toMatchObject({ status: 200, body: 'ok' });
  expect((await call(target, '/pods', { token: 'first-token' })).status).toBe(503);
  expect((await call(target, '/healthz', { token: 'second-token' })).status).toBe(401);

  await writeFile(tokenFile, 'second-token\n');
  const rotated = await until(
    async () => (await call(target, '/healthz', { token: 'second-token' })).status === 200,
    8000,
  );
  expect(rotated).toBe(true);
  const old: Reply = await call(target, '/healthz', { token: 'first-token' });
  expect(old.status).toBe(401);

  child.kill('SIGTERM');
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(code).toBe(0);
});

it('prints a token it made up when given none, and serves recorded documents', async () => {
  const dir = await tempDir();
  await writeFile(join(dir, 'stats-summary.json'), '{"node":{"nodeName":"captured"},"pods":[]}');
  await writeFile(join(dir, 'metrics-cadvisor.txt'), 'machine_cpu_cores 2\n');
  await writeFile(join(dir, 'pods.json'), '{"kind":"PodList"');
  const caFile = join(dir, 'ca.pem');
  const { output, url } = await serve(['--recorded', dir, '--ca-out', caFile]);
  const token = /token \(user [^)]*\): (\S+)/.exec(output())?.[1];
  expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
  const target = { url, caPem: await readFile(caFile, 'utf8') };
  expect((await call(target, '/pods', { token })).body).toBe('{"kind":"PodList"');
  expect((await call(target, '/stats/summary', { token })).body).toBe(
    '{"node":{"nodeName":"captured"},"pods":[]}',
  );
});
