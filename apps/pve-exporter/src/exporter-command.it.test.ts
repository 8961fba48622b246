import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startPveSim } from '@noderings/pve-sim';
import type { PveSim } from '@noderings/pve-sim';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';

/** `tsx apps/pve-exporter/src/main.ts …` as a child process, as `npm run pve-exporter` starts it. */

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const TSX = join(REPO, 'node_modules', '.bin', 'tsx');
const MAIN = join(REPO, 'apps', 'pve-exporter', 'src', 'main.ts');
const MONITOR = {
  id: 'prometheus@pve!exporter',
  secret: randomUUID(),
  acl: [{ path: '/', role: 'PVEAuditor' }],
};

let sim: PveSim;
let dir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  sim = await startPveSim({ nodes: 1, tokens: [MONITOR] });
  dir = await mkdtemp(join(tmpdir(), 'pve-exporter-cli-'));
  await writeFile(join(dir, 'sim-ca.pem'), sim.certPem);
  await writeFile(
    join(dir, 'pve.yml'),
    [
      'default:',
      '  user: prometheus@pve',
      '  token_name: exporter',
      `  token_value: ${MONITOR.secret}`,
      `  verify_ssl: ${join(dir, 'sim-ca.pem')}`,
    ].join('\n'),
  );
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  child: ChildProcess;
  stderr: () => string;
  exit: Promise<number | null>;
}

function run(args: string[], env: Record<string, string> = {}): Run {
  // The exporter reads its module from PVE_* when PVE_USER is set; none may leak in from outside.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('PVE_')),
  );
  const child = spawn(TSX, [MAIN, ...args], { cwd: REPO, env: { ...inherited, ...env }, stdio: 'pipe' });
  children.push(child);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  return { child, stderr: () => stderr, exit };
}

describe('pve-exporter command', () => {
  test('serves /pve with the config file, logs its URL once, and stops cleanly on SIGTERM', async () => {
    const exporter = run(['--listen', '127.0.0.1:0', '--config', join(dir, 'pve.yml'), '--timeout', '5']);
    await expect.poll(exporter.stderr, { timeout: 20_000 }).toMatch(/serving http:\/\/127\.0\.0\.1:\d+\/pve/);
    const url = /serving (http:\/\/\S+)\/pve/.exec(exporter.stderr())?.[1] ?? '';
    expect(exporter.stderr()).toBe(
      `pve-exporter serving ${url}/pve (modules default from ${join(dir, 'pve.yml')})\n`,
    );

    const target = new URL(sim.url).host;
    const response = await fetch(`${url}/pve?target=${target}&cluster=1&node=1`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('pve_up{id="cluster/sim"} 1.0\n');

    exporter.child.kill('SIGTERM');
    expect(await exporter.exit).toBe(0);
  });

  test('with PVE_USER set, the module comes from the environment and the file is not read', async () => {
    const exporter = run(['--listen', '127.0.0.1:0', '--config', join(dir, 'absent.yml')], {
      PVE_USER: 'prometheus@pve',
      PVE_TOKEN_NAME: 'exporter',
      PVE_TOKEN_VALUE: MONITOR.secret,
      PVE_VERIFY_SSL: 'false',
    });
    await expect
      .poll(exporter.stderr, { timeout: 20_000 })
      .toContain('from the environment (PVE_USER is set)');
    const url = /serving (http:\/\/\S+)\/pve/.exec(exporter.stderr())?.[1] ?? '';
    const response = await fetch(`${url}/pve?target=${new URL(sim.url).host}`);
    expect(response.status).toBe(200);
    exporter.child.kill('SIGINT');
    expect(await exporter.exit).toBe(0);
  });

  test('a bad flag exits 2 with the reason and the usage', async () => {
    const exporter = run(['--bogus']);
    expect(await exporter.exit).toBe(2);
    expect(exporter.stderr()).toMatch(/^pve-exporter: Unknown option '--bogus'/);
    expect(exporter.stderr()).toContain(
      'Usage: pve-exporter [--listen HOST:PORT] [--config FILE] [--timeout SECONDS]',
    );
  });

  test('a missing or invalid config file exits 2 naming the file and the problem', async () => {
    const missing = run(['--config', join(dir, 'absent.yml')]);
    expect(await missing.exit).toBe(2);
    expect(missing.stderr()).toBe(
      `pve-exporter: cannot read the config file ${join(dir, 'absent.yml')}: no such file\n`,
    );

    const invalidFile = join(dir, 'invalid.yml');
    await writeFile(invalidFile, 'default:\n  user: prometheus@pve\n  token_name: exporter\n');
    const invalid = run(['--config', invalidFile]);
    expect(await invalid.exit).toBe(2);
    expect(invalid.stderr()).toBe(
      `pve-exporter: ${invalidFile}: module 'default': token_value is missing (give both or neither)\n`,
    );
  });
});
