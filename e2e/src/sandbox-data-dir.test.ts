import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openSandboxDataDir } from './sandbox-data-dir.js';
import { newSeedRecord, type SeedRecord } from './seed-record.js';

const RECORD: SeedRecord = newSeedRecord({
  seededAt: '2026-01-01T00:00:00.000Z',
  staffPassword: 'staff-password',
  metricsToken: 'nrm_token',
  pveUrl: 'https://127.0.0.1:8006',
  kubeUrl: 'https://127.0.0.1:6443',
  seeded: {
    provider: {
      organizationId: 'org-p',
      organizationName: 'Sandbox Hosting',
      region: { id: 'region', city: 'Frankfurt', datacenter: 'Own facility' },
      agent: { id: 'agent', name: 'sandbox-agent' },
      platform: { id: 'platform', name: 'pve-sim', endpointUrl: 'https://127.0.0.1:8006' },
      nodes: [{ id: 'node', name: 'pve1', vmidSeed: 1000 }],
    },
    offer: {
      network: { id: 'network', name: 'public', prefixes: [] },
      cloudInitTemplates: [],
      vmTemplates: [],
      plans: [{ id: 'plan', name: 'Starter', code: 'SC-GC-1C-1G-10', monthlyPrice: '4' }],
    },
    customer: { organizationId: 'org-c', organizationName: 'Sandbox Customer' },
  },
});

/** A folder as a start that seeded it leaves it. */
async function seededFolder(dir: string): Promise<Buffer> {
  const opened = await openSandboxDataDir(dir);
  await mkdir(opened.paths.database);
  await writeFile(join(opened.paths.database, 'PG_VERSION'), '17');
  await writeFile(opened.paths.pveState, '{}');
  await writeFile(opened.paths.kubeState, '{}');
  await opened.writeSeedRecord(RECORD);
  return opened.secretKey;
}

describe('the sandbox data folder', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sandbox-data-dir-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('is created when missing, with a new key, for a fresh seed', async () => {
    const opened = await openSandboxDataDir(join(root, 'new'));
    expect(opened.seedRecord).toBeUndefined();
    expect(opened.secretKey).toHaveLength(32);
    expect((await readdir(opened.dir)).sort()).toEqual(['.noderings-sandbox', 'sandbox.pid', 'secret.key']);
  });

  it('is reused as it is once seeded: the same key, the record, the state left in place', async () => {
    const dir = join(root, 'seeded');
    const key = await seededFolder(dir);
    const before = (await readdir(dir)).sort();
    const opened = await openSandboxDataDir(dir);
    expect(opened.seedRecord).toEqual(RECORD);
    expect(opened.secretKey.equals(key)).toBe(true);
    expect((await readdir(dir)).sort()).toEqual(before);
    expect(await readFile(join(opened.paths.database, 'PG_VERSION'), 'utf8')).toBe('17');
  });

  it('is emptied for a fresh seed on reset, and when the start that made it did not finish seeding', async () => {
    const reset = join(root, 'reset');
    const key = await seededFolder(reset);
    const opened = await openSandboxDataDir(reset, { reset: true });
    expect(opened.seedRecord).toBeUndefined();
    expect(opened.secretKey.equals(key)).toBe(false);
    expect((await readdir(reset)).sort()).toEqual(['.noderings-sandbox', 'sandbox.pid', 'secret.key']);

    const interrupted = join(root, 'interrupted');
    const first = await openSandboxDataDir(interrupted);
    await mkdir(first.paths.database);
    expect((await openSandboxDataDir(interrupted)).seedRecord).toBeUndefined();
    expect(await readdir(interrupted)).not.toContain('pglite');
  });

  it('is refused, untouched, when seeded but missing a part, or with a record it cannot read', async () => {
    const dir = join(root, 'inconsistent');
    await seededFolder(dir);
    await rm(join(dir, 'pglite'), { recursive: true });
    const refusal = openSandboxDataDir(dir);
    await expect(refusal).rejects.toMatchObject({ code: 'INCONSISTENT_DATA_DIR' });
    await expect(refusal).rejects.toThrow(/pglite is missing; start with --reset/);
    expect(await readdir(dir)).toContain('sandbox.json');

    const garbled = join(root, 'garbled');
    await seededFolder(garbled);
    await writeFile(join(garbled, 'sandbox.json'), '{"version":1}');
    await expect(openSandboxDataDir(garbled)).rejects.toMatchObject({ code: 'INCONSISTENT_DATA_DIR' });
  });

  it('is refused, untouched, while another running sandbox uses it, and taken once that one is gone', async () => {
    const dir = join(root, 'in-use');
    await seededFolder(dir);
    // A process that runs (the test runner's parent), then one that has ended.
    await writeFile(join(dir, 'sandbox.pid'), `${String(process.ppid)}\n`);
    await expect(openSandboxDataDir(dir, { reset: true })).rejects.toMatchObject({
      code: 'DATA_DIR_IN_USE',
    });
    expect(await readdir(dir)).toContain('pglite');
    const ended = spawnSync(process.execPath, ['-e', '']).pid;
    await writeFile(join(dir, 'sandbox.pid'), `${String(ended)}\n`);
    const opened = await openSandboxDataDir(dir);
    expect(opened.seedRecord).toEqual(RECORD);
    expect(await readFile(join(dir, 'sandbox.pid'), 'utf8')).toBe(`${String(process.pid)}\n`);
    await opened.release();
    expect(await readdir(dir)).not.toContain('sandbox.pid');
  });

  it('is refused, and left as it was, when it holds files the sandbox did not make', async () => {
    const dir = join(root, 'someone-elses');
    await mkdir(dir);
    await writeFile(join(dir, 'thesis.tex'), 'years of work');
    await expect(openSandboxDataDir(dir, { reset: true })).rejects.toMatchObject({
      code: 'FOREIGN_DATA_DIR',
    });
    expect(await readdir(dir)).toEqual(['thesis.tex']);
  });

  it('accepts an empty folder', async () => {
    const dir = join(root, 'empty');
    await mkdir(dir);
    expect((await openSandboxDataDir(dir)).seedRecord).toBeUndefined();
    expect(await readdir(dir)).toContain('.noderings-sandbox');
  });
});
