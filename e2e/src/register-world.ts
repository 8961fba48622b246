import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';

import { SimulatedHost, stopSimulatedHost, type SimulatedHostFacts } from '@noderings/cli/simulated-host';
import { startControlPlane, type ControlPlane } from '@noderings/control-plane';
import { startPveSim, type PveSim } from '@noderings/pve-sim';

import { ControlPlaneClient, type Caller } from './control-plane-client.js';
import { registerVerifiedProvider } from './provider-seed.js';
import { writeSandboxPlatformVersions } from './sandbox-platform-versions.js';
import { repoPath, TSX_LOADER } from './tsx-child.js';

const STAFF = { email: 'staff@register.test', password: 'staff password 1234' };
const UNLIMITED = { kind: 'window', limit: 1_000_000, windowMs: 60_000 } as const;
const PVE_TOKEN_ID = 'root@pam!nr';
const NR_MAIN = repoPath('apps/cli/src/main.ts');
/** The agent IP every test registers with: the simulated host's eth0. */
export const AGENT_IP = '192.0.2.20';

export interface NrResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface NrChildOptions {
  /** Told what nr has printed on stderr so far, each time it prints more. */
  readonly onStderr?: (stderr: string) => void;
  /** SIGKILLs nr as soon as what it printed on stderr so far satisfies this. */
  readonly killWhen?: (stderr: string) => boolean;
  readonly env?: Record<string, string>;
  /** False: without NR_TOKEN, so nr uses what `nr login` stored. Default true. */
  readonly signedIn?: boolean;
}

/**
 * What `nr cluster register` meets in a provider's world, each test its own: a control plane (embedded
 * database) publishing the sandbox's platform versions, a pve-sim with two nodes, a verified provider
 * with one region, a simulated host, a Proxmox instances file (0600) and a config folder.
 */
export interface RegisterWorld {
  readonly cp: ControlPlane;
  readonly api: ControlPlaneClient;
  readonly pve: PveSim;
  readonly provider: Caller & { readonly organizationId: string };
  /** The provider owner's sign-in, for the dashboard. */
  readonly account: { readonly email: string; readonly password: string };
  readonly regionId: string;
  readonly hostRoot: string;
  readonly configDir: string;
  readonly instancesFile: string;
  /** `nr ARGV` as its own process (plain node with tsx's loader), on the simulated host, as the provider. */
  nr(argv: readonly string[], options?: NrChildOptions): Promise<NrResult>;
  close(): Promise<void>;
}

export interface RegisterWorldOptions {
  /** The simulated host's facts beyond the defaults (a healthy Ubuntu 24.04 VM). */
  readonly facts?: Partial<SimulatedHostFacts>;
  /** Serve this built dashboard (for a browser to approve `nr login`). */
  readonly dashboardDir?: string;
}

export async function startRegisterWorld(options: RegisterWorldOptions = {}): Promise<RegisterWorld> {
  const facts = options.facts ?? {};
  const dir = await mkdtemp(join(tmpdir(), 'nr-register-'));
  const closers: (() => Promise<void>)[] = [() => rm(dir, { recursive: true, force: true })];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    const hostRoot = join(dir, 'host');
    await SimulatedHost.create(hostRoot, facts);
    closers.push(() => stopSimulatedHost(hostRoot));
    const pveToken = { id: PVE_TOKEN_ID, secret: randomUUID() };
    const pve = await startPveSim({ tokens: [pveToken], nodes: 2, taskMs: 20 });
    closers.push(() => pve.close());
    const versions = await writeSandboxPlatformVersions(join(dir, 'platform-versions'));
    const cp = await startControlPlane({
      database: { inMemory: true },
      secretKey: randomBytes(32),
      logDestination: new Writable({
        write: (_c, _e, callback) => {
          callback();
        },
      }),
      admin: STAFF,
      registrationLimits: { perAddress: UNLIMITED, overall: UNLIMITED },
      allowPrivateDestinations: true,
      platformVersionsFile: versions.file,
      ...(options.dashboardDir !== undefined && { dashboardDir: options.dashboardDir }),
    });
    closers.push(() => cp.close());
    const api = new ControlPlaneClient(cp.url);
    const account = { email: `provider-${randomUUID()}@register.test`, password: 'provider password 1234' };
    const provider = await registerVerifiedProvider(api, account, STAFF, 'Register Hosting');
    const region = await api.call<{ id: string }>('POST', '/v1/regions', 201, {
      as: provider,
      body: { cityCountryId: 'de-fra', datacenterId: 'own-facility' },
    });
    const instancesFile = join(dir, 'proxmox-instances.yaml');
    await writeFile(
      instancesFile,
      [
        'instances:',
        '  - id: pve-a',
        `    url: ${pve.url}`,
        `    tokenId: "${pveToken.id}"`,
        `    tokenSecret: ${pveToken.secret}`,
        `    tlsFingerprint: "${pve.fingerprint}"`,
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    const configDir = join(dir, 'nr');
    await mkdir(configDir, { mode: 0o700 });
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      NR_API_URL: cp.url,
      NR_TOKEN: provider.token,
      NR_ORGANIZATION_ID: provider.organizationId,
      NR_SIMULATED_HOST: hostRoot,
    };
    return {
      cp,
      api,
      pve,
      provider,
      account,
      regionId: region.id,
      hostRoot,
      configDir,
      instancesFile,
      nr: (argv, options = {}) =>
        runNr(['--config-dir', configDir, ...argv], { ...env, ...options.env }, options),
      close,
    };
  } catch (e: unknown) {
    await close();
    throw e;
  }
}

function runNr(
  argv: readonly string[],
  env: Record<string, string>,
  options: NrChildOptions,
): Promise<NrResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, NR_MAIN, ...argv], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      options.onStderr?.(stderr);
      if (options.killWhen?.(stderr) === true) child.kill('SIGKILL');
    });
    child.once('error', reject);
    child.once('close', (code, signal) => {
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** The register command line of the tests. */
export function registerArgs(world: RegisterWorld, ...extra: string[]): string[] {
  return [
    'cluster',
    'register',
    ...['--name', 'agent-a', '--agent-ip', AGENT_IP],
    ...['--proxmox-instances-file', world.instancesFile],
    ...['--register-platform', '--region-id', world.regionId],
    ...extra,
  ];
}
