import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { call, data, runTask } from './api-test-client.js';
import { startPveSim, type PveSim } from './pve-sim.js';

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url));

/** Starts `npm run pve-sim`'s program and reads what it prints until the guests are listed. */
async function runCommand(args: string[]): Promise<{ output: string }> {
  const child = spawn(process.execPath, [TSX, MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
      if (output.includes('test control')) resolve();
    });
    child.once('exit', (code) => {
      reject(new Error(`pve-sim exited with ${code ?? 'a signal'}: ${output}`));
    });
  });
  return { output };
}

test('the command prints the URL, fingerprint, tokens and guests, and serves HTTPS with that certificate', async () => {
  const { output } = await runCommand([
    '--listen',
    '127.0.0.1:0',
    '--nodes',
    '2',
    '--token',
    'root@pam!sim=S3CRET',
    '--task-ms',
    '5',
  ]);
  const url = /listening on (https:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1] ?? '';
  const fingerprint = /fingerprint: ([0-9A-F:]{95})/.exec(output)?.[1] ?? '';
  expect(url).not.toBe('');
  expect(fingerprint).not.toBe('');
  expect(output).toContain('Authorization: PVEAPIToken=root@pam!sim=S3CRET');
  expect(output).toMatch(/9000\s+pve1\s+template\s+ubuntu-2404-cloudinit/);
  expect(output).toMatch(/101\s+pve2\s+running\s+lab-2/);
  // The printed fingerprint is the one the server presents.
  const { connect } = await import('node:tls');
  const port = Number(new URL(url).port);
  const presented = await new Promise<string>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      resolve(socket.getPeerX509Certificate()?.fingerprint256 ?? '');
      socket.end();
    });
    socket.on('error', reject);
  });
  expect(presented).toBe(fingerprint);
});

test('bad flags exit with status 2 and the usage text', async () => {
  const child = spawn(process.execPath, [TSX, MAIN, '--nodes', 'many'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  expect(code).toBe(2);
  expect(stderr).toContain('--nodes wants a whole number');
  expect(stderr).toContain('Usage: npm run pve-sim');
});

test('--state keeps VMs, configs and backups across a restart', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pve-sim-state-'));
  dirs.push(dir);
  const statePath = join(dir, 'state.json');
  const tokens = [{ id: 'root@pam!sim', secret: 'persist' }];
  let sim: PveSim = await startPveSim({ statePath, tokens, taskMs: 5 });
  try {
    expect(
      (await runTask(sim, 'POST', '/nodes/pve1/qemu/9000/clone', { params: { newid: 555, name: 'kept' } }))
        .exitstatus,
    ).toBe('OK');
    await data(sim, 'PUT', '/nodes/pve1/qemu/555/firewall/options', { params: { enable: 1 } });
    expect(
      (await runTask(sim, 'POST', '/nodes/pve1/vzdump', { params: { vmid: 555, storage: 'local' } }))
        .exitstatus,
    ).toBe('OK');
  } finally {
    await sim.close();
  }
  sim = await startPveSim({ statePath, tokens, taskMs: 5 });
  try {
    expect((await data<{ name: string }>(sim, 'GET', '/nodes/pve1/qemu/555/config')).name).toBe('kept');
    expect(await data(sim, 'GET', '/nodes/pve1/qemu/555/firewall/options')).toMatchObject({ enable: 1 });
    expect(
      await data<unknown[]>(sim, 'GET', '/nodes/pve1/storage/local/content', {
        params: { content: 'backup', vmid: 555 },
      }),
    ).toHaveLength(1);
    expect((await call(sim, 'GET', '/cluster/nextid', { params: { vmid: 555 } })).status).toBe(400);
  } finally {
    await sim.close();
  }
});
