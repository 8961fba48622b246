import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { field, ok } from './api-test-client.js';
import { startKubeSim } from './kube-sim.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kube-sim-command-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const MAIN = join(import.meta.dirname, 'main.ts');

describe('kube-sim command', () => {
  it('exits 2 with the usage on bad flags', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--watch-window', 'lots']);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('--watch-window wants a whole number');
    expect(stderr).toContain('Usage: npm run kube-sim -- [options]');
  });

  it('writes a kubeconfig, prints where it is, and keeps objects across restarts with --state', async () => {
    const kubeconfig = join(dir, 'kubeconfig.yaml');
    const state = join(dir, 'state.json');
    const child = spawn(process.execPath, [
      '--import',
      'tsx',
      MAIN,
      '--listen',
      '127.0.0.1:0',
      '--kubeconfig',
      kubeconfig,
      '--state',
      state,
    ]);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', () => {
          if (stdout.includes('kubeconfig')) resolve();
        });
        child.on('exit', (code) => {
          reject(new Error(`kube-sim exited ${code ?? 'by signal'}`));
        });
      });
      expect(stdout).toMatch(/listening on https:\/\/127\.0\.0\.1:\d+/);
      expect(stdout).toContain(kubeconfig);
      const config = parse(await readFile(kubeconfig, 'utf8')) as unknown;
      expect(field(config, 'current-context')).toBe('kube-sim');
      expect(field(config, 'users.0.user.token')).toEqual(expect.any(String) as string);
      expect(field(config, 'clusters.0.cluster.certificate-authority-data')).toEqual(
        expect.any(String) as string,
      );
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.on('exit', resolve));
    }

    // The programmatic API keeps its state the same way.
    const first = await startKubeSim({ statePath: join(dir, 'api-state.json') });
    try {
      await ok(first, 'POST', '/api/v1/namespaces/default/configmaps', {
        body: { metadata: { name: 'kept' }, data: { a: 'b' } },
      });
    } finally {
      await first.close();
    }
    const second = await startKubeSim({ statePath: join(dir, 'api-state.json') });
    try {
      expect(second.adminToken).toBe(first.adminToken);
      expect(second.caPem).toBe(first.caPem);
      expect(await ok(second, 'GET', '/api/v1/namespaces/default/configmaps/kept')).toMatchObject({
        data: { a: 'b' },
      });
      const created = await ok(second, 'POST', '/api/v1/namespaces/default/configmaps', {
        body: { metadata: { name: 'later' } },
      });
      expect(Number(field(created, 'metadata.resourceVersion'))).toBeGreaterThan(1);
    } finally {
      await second.close();
    }
  });
});
