import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, it } from 'vitest';

import { CliError } from '../cli-error.js';
import { checkProxmoxInstance, type ProxmoxInstance } from './proxmox-instances.js';

/** `nr cluster register`'s check of a Proxmox token, against pve-sim (its own command) over real HTTPS. */

const PVE_SIM = fileURLToPath(new URL('../../../../sim/pve-sim/src/main.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../../../node_modules/tsx/dist/cli.mjs', import.meta.url));

const ADMIN = { id: 'root@pam!admin', secret: randomUUID() };
const AUDITOR = { id: 'nr@pve!k8s', secret: randomUUID() };

let child: ChildProcess | undefined;
afterEach(async () => {
  if (child?.exitCode === null) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
  child = undefined;
});

interface Sim {
  url: string;
  fingerprint: string;
}

/** Starts pve-sim on a free port with an admin token and one holding only PVEAuditor on `/`. */
async function startPveSim(): Promise<Sim> {
  const args = ['--listen', '127.0.0.1:0', '--task-ms', '5'];
  args.push('--token', `${ADMIN.id}=${ADMIN.secret}`, '--token', `${AUDITOR.id}=${AUDITOR.secret}`);
  args.push('--acl', '/=PVEAuditor');
  const started = spawn(process.execPath, [TSX, PVE_SIM, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child = started;
  let output = '';
  started.stderr.on('data', (c: Buffer) => (output += c.toString()));
  await new Promise<void>((resolve, reject) => {
    started.stdout.on('data', (c: Buffer) => {
      output += c.toString();
      // The guest list, then the test-control line, come last.
      if (output.includes('test control')) resolve();
    });
    started.once('exit', (code) => {
      reject(new Error(`pve-sim exited with ${code ?? 'a signal'}: ${output}`));
    });
  });
  const url = /listening on (https:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
  const fingerprint = /fingerprint: ([0-9A-F:]{95})/.exec(output)?.[1];
  if (url === undefined || fingerprint === undefined) throw new Error(`pve-sim printed no URL: ${output}`);
  return { url, fingerprint };
}

function instance(sim: Sim, token: { id: string; secret: string }): ProxmoxInstance {
  const [username = '', tokenName = ''] = token.id.split('!');
  return {
    id: 'pve-a',
    url: sim.url,
    username,
    tokenName,
    tokenSecret: token.secret,
    tlsFingerprint: sim.fingerprint,
  };
}

describe('checkProxmoxInstance', () => {
  it('passes an administrator token, with the version and the nodes', async () => {
    const checked = await checkProxmoxInstance(instance(await startPveSim(), ADMIN));
    expect(checked.nodes).toEqual(['pve1', 'pve2', 'pve3']);
    expect(checked.version).toMatch(/^\d+\.\d+/);
  });

  it('refuses a token with only PVEAuditor on /, naming what the operator misses', async () => {
    const sim = await startPveSim();
    const error = await checkProxmoxInstance(instance(sim, AUDITOR)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).code).toBe('REGISTER_REFUSED');
    const message = (error as CliError).message;
    expect(message).toContain(
      `Proxmox instance pve-a (${sim.url}): the token nr@pve!k8s lacks VM.Clone, VM.Allocate, VM.Config.CPU, `,
    );
    expect(message).toContain(
      'VM.PowerMgmt, VM.Console, VM.Snapshot, VM.Snapshot.Rollback, VM.Backup on /vms, and Datastore.AllocateSpace, Datastore.AllocateTemplate on /storage: ',
    );
    expect(message).toContain('(e.g. PVEVMAdmin on /vms, and PVEDatastoreAdmin on /storage)');
    // PVEAuditor carries VM.Audit, Datastore.Audit and what is asked on /nodes.
    expect(message).not.toContain('/nodes');
    expect(message).not.toMatch(/VM\.Audit|Datastore\.Audit/);
  });
});
