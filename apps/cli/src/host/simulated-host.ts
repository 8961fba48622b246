import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { lookup } from 'node:dns/promises';
import { dirname, isAbsolute, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

import type {
  CommandResult,
  Host,
  HostCommand,
  MemoryInfo,
  NetworkInterface,
  OsRelease,
  Privilege,
  ServiceState,
  ServiceUnit,
} from './host.js';
import { spawnProcess } from './process-runner.js';
import { renderServiceUnit, unitPath } from './systemd-unit.js';

/** What the simulated machine has, from `host.json` in its root folder. */
export interface SimulatedHostFacts {
  readonly hostname: string;
  readonly osRelease: OsRelease | null;
  readonly cpus: number;
  readonly memoryBytes: number;
  readonly freeDiskBytes: number;
  readonly interfaces: readonly NetworkInterface[];
  /** Ports something else already listens on. */
  readonly busyPorts: readonly { port: number; protocol: 'tcp' | 'udp' }[];
  readonly privilege: Privilege;
  /** False: no name resolves. True: names resolve as they do on this machine. */
  readonly dns: boolean;
}

const GIB = 1024 ** 3;

/** An Ubuntu 24.04 VM with what seed 000 asks for and one interface, `eth0`, on 192.0.2.20 (RFC 5737: the sandbox's agent addresses are documentation ones). */
export const DEFAULT_FACTS: SimulatedHostFacts = {
  hostname: 'agent-1',
  osRelease: { id: 'ubuntu', versionId: '24.04', prettyName: 'Ubuntu 24.04.3 LTS' },
  cpus: 4,
  memoryBytes: 8 * GIB,
  freeDiskBytes: 40 * GIB,
  interfaces: [
    { name: 'lo', up: true, loopback: true, ipv4: ['127.0.0.1'] },
    { name: 'eth0', up: true, loopback: false, ipv4: ['192.0.2.20'] },
  ],
  busyPorts: [],
  privilege: 'root',
  dns: true,
};

/** One change the simulated host made, as `mutations.jsonl` records it. */
export interface Mutation {
  readonly at: string;
  readonly kind:
    'write' | 'remove' | 'install-service' | 'start-service' | 'stop-service' | 'remove-service' | 'run';
  readonly detail: string;
}

const FACTS_FILE = 'host.json';
const MUTATIONS_FILE = 'mutations.jsonl';
const UNITS_DIR = 'etc/systemd/system';
const K3S_BINARY = '/usr/local/bin/k3s';
const K3S_KUBECONFIG = 'etc/rancher/k3s/k3s.yaml';
const K3S_PID = 'run/k3s/k3s.pid';
const K3S_READY = 'run/k3s/ready';
const K3S_LOG = 'var/log/k3s.log';
const POD_LOGS = 'var/log/pods';
/** Ports k3s holds while it runs (the API server, the kubelet, VXLAN). */
const K3S_PORTS = [
  { port: 6443, protocol: 'tcp' },
  { port: 10250, protocol: 'tcp' },
  { port: 8472, protocol: 'udp' },
] as const;
const START_TIMEOUT_MS = 90_000;
/** As `HostCommand.timeoutMs` says. */
const DEFAULT_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 10_000;

/** kubectl verbs that change nothing: a simulated host does not record them as mutations. */
const READ_ONLY_KUBECTL = new Set([
  'get',
  'version',
  'logs',
  'describe',
  'api-resources',
  'auth',
  'wait',
  'cluster-info',
  'config',
]);

const REPO = new URL('../../../../', import.meta.url);
const K3S_SIM_MAIN = fileURLToPath(new URL('sim/k3s-sim/src/main.ts', REPO));
const TSX_LOADER = new URL('node_modules/tsx/dist/loader.mjs', REPO).href;

/**
 * A machine inside a folder, for tests and the sandbox. Absolute paths land under the root folder; its
 * facts (OS, CPUs, memory, disk, interfaces, ports, privilege) come from `host.json`; every change it
 * makes is appended to `mutations.jsonl`. k3s is "installed" when `/usr/local/bin/k3s` exists and
 * "runs" when its unit is started: a k3s-sim process (a kube-sim with k3s' kubeconfig, a Ready node and a
 * pod runner), detached as a systemd service is, so that it outlives the `nr` that started it.
 * `k3s kubectl …` is this machine's kubectl with k3s' kubeconfig. It needs a checkout of this repository
 * (it runs k3s-sim from source).
 */
export class SimulatedHost implements Host {
  readonly description: string;

  constructor(readonly root: string) {
    this.description = `the simulated host in ${root}`;
  }

  /** Creates the root folder with the facts given (the defaults for the rest), unless it has them. */
  static async create(root: string, facts: Partial<SimulatedHostFacts> = {}): Promise<SimulatedHost> {
    await mkdir(root, { recursive: true });
    const path = join(root, FACTS_FILE);
    if (!existsSync(path))
      await writeFile(path, `${JSON.stringify({ ...DEFAULT_FACTS, ...facts }, null, 2)}\n`);
    return new SimulatedHost(root);
  }

  async facts(): Promise<SimulatedHostFacts> {
    const text = await readFile(join(this.root, FACTS_FILE), 'utf8').catch(() => undefined);
    return {
      ...DEFAULT_FACTS,
      ...(text === undefined ? {} : (JSON.parse(text) as Partial<SimulatedHostFacts>)),
    };
  }

  async run(command: HostCommand): Promise<CommandResult> {
    const [program = '', ...args] = command.argv;
    if (program === 'k3s' || program === K3S_BINARY) return this.runK3s(command, args);
    if (program === 'sha256sum') return this.sha256sum(args);
    if (program === 'journalctl') return this.journal(args);
    await this.record('run', command.argv.join(' '));
    return { exitCode: 127, stdout: '', stderr: `${program}: command not found\n` };
  }

  async readFile(path: string): Promise<string | undefined> {
    return readFile(this.path(path), 'utf8').catch((e: unknown) => {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EISDIR') return undefined;
      throw e;
    });
  }

  async writeFile(path: string, content: string | Uint8Array, mode: number): Promise<void> {
    const target = this.path(path);
    await mkdir(dirname(target), { recursive: true, mode: 0o755 });
    const temporary = `${target}.${String(process.pid)}.tmp`;
    await writeFile(temporary, content, { mode });
    await rename(temporary, target);
    await this.record('write', `${path} (${(mode & 0o7777).toString(8)})`);
  }

  async modeOf(path: string): Promise<number | undefined> {
    return stat(this.path(path)).then(
      (s) => s.mode & 0o7777,
      () => undefined,
    );
  }

  async remove(path: string): Promise<void> {
    const target = this.path(path);
    if (!existsSync(target)) return;
    await rm(target, { recursive: true, force: true });
    await this.record('remove', path);
  }

  async installService(unit: ServiceUnit): Promise<void> {
    // The unit file systemd would read, and beside it what the simulated systemd reads back.
    const text = renderServiceUnit(unit);
    await mkdir(join(this.root, UNITS_DIR), { recursive: true });
    await writeFile(join(this.root, unitPath(unit.name)), text, { mode: 0o644 });
    await writeFile(
      join(this.root, UNITS_DIR, `${unit.name}.service.json`),
      `${JSON.stringify(unit, null, 2)}\n`,
    );
    await this.record('install-service', `${unit.name}: ${unit.execStart.join(' ')}`);
  }

  async startService(name: string): Promise<void> {
    const unit = await this.unit(name);
    if (unit === undefined)
      throw new Error(`Failed to start ${name}.service: Unit ${name}.service not found.`);
    if ((await this.k3sPid()) !== undefined) return;
    const [program, subcommand, ...flags] = unit.execStart;
    if (program !== K3S_BINARY || subcommand !== 'server')
      throw new Error(
        `the simulated host runs only k3s server as a service, not ${unit.execStart.join(' ')}`,
      );
    if (!existsSync(this.path(K3S_BINARY)))
      throw new Error(
        `${name}.service: Failed at step EXEC spawning ${K3S_BINARY}: No such file or directory`,
      );
    if (!existsSync(K3S_SIM_MAIN))
      throw new Error(`the simulated host needs a checkout of NodeRings (${K3S_SIM_MAIN} is missing)`);
    await this.record('start-service', name);
    const facts = await this.facts();
    await mkdir(join(this.root, dirname(K3S_LOG)), { recursive: true });
    const log = await open(join(this.root, K3S_LOG), 'a');
    const child = spawn(
      process.execPath,
      [
        ...['--import', TSX_LOADER, K3S_SIM_MAIN],
        ...['--root', this.root, '--node-name', facts.hostname, '--version', await this.k3sVersion()],
        'server',
        ...flags,
      ],
      {
        detached: true,
        stdio: ['ignore', log.fd, log.fd],
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      },
    );
    let exited: string | undefined;
    child.once('exit', (code, signal) => {
      exited = signal ?? `code ${String(code)}`;
    });
    child.unref();
    await log.close();
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!existsSync(join(this.root, K3S_READY))) {
      if (exited !== undefined)
        throw new Error(
          `${name}.service: k3s exited (${exited}) before it was ready; see ${join(this.root, K3S_LOG)}`,
        );
      if (Date.now() > deadline)
        throw new Error(`${name}.service: k3s was not ready within ${String(START_TIMEOUT_MS / 1000)} s`);
      await sleep(100);
    }
  }

  async stopService(name: string): Promise<void> {
    if ((await this.unit(name)) === undefined) return;
    if ((await this.k3sPid()) === undefined) return;
    await this.record('stop-service', name);
    await stopK3s(this.root);
  }

  async removeService(name: string): Promise<void> {
    if ((await this.unit(name)) === undefined) return;
    await this.stopService(name);
    await rm(join(this.root, UNITS_DIR, `${name}.service.json`), { force: true });
    await rm(join(this.root, unitPath(name)), { force: true });
    await this.record('remove-service', name);
  }

  async serviceState(name: string): Promise<ServiceState> {
    if ((await this.unit(name)) === undefined) return 'not-found';
    if ((await this.k3sPid()) === undefined) return 'inactive';
    return existsSync(join(this.root, K3S_READY)) ? 'active' : 'activating';
  }

  async osRelease(): Promise<OsRelease | undefined> {
    return (await this.facts()).osRelease ?? undefined;
  }

  async cpuCount(): Promise<number> {
    return (await this.facts()).cpus;
  }

  async memory(): Promise<MemoryInfo> {
    const { memoryBytes } = await this.facts();
    return { totalBytes: memoryBytes, availableBytes: Math.floor(memoryBytes * 0.9) };
  }

  async freeDiskBytes(): Promise<number> {
    return (await this.facts()).freeDiskBytes;
  }

  async networkInterfaces(): Promise<readonly NetworkInterface[]> {
    return (await this.facts()).interfaces;
  }

  async portFree(port: number, protocol: 'tcp' | 'udp'): Promise<boolean> {
    const { busyPorts } = await this.facts();
    if (busyPorts.some((p) => p.port === port && p.protocol === protocol)) return false;
    const k3sHolds = K3S_PORTS.some((p) => p.port === port && p.protocol === protocol);
    return !(k3sHolds && (await this.k3sPid()) !== undefined);
  }

  async privilege(): Promise<Privilege> {
    return (await this.facts()).privilege;
  }

  publishedAddress(): string {
    return '127.0.0.1';
  }

  async resolve(hostname: string): Promise<readonly string[] | undefined> {
    if (!(await this.facts()).dns) return undefined;
    return lookup(hostname, { all: true }).then(
      (answers) => answers.map((a) => a.address),
      () => undefined,
    );
  }

  /** The path under the root folder; refuses relative paths and any that would leave the root. */
  private path(path: string): string {
    if (!isAbsolute(path)) throw new Error(`the simulated host takes absolute paths, not ${path}`);
    return join(this.root, normalize(path));
  }

  private async record(kind: Mutation['kind'], detail: string): Promise<void> {
    const line: Mutation = { at: new Date().toISOString(), kind, detail };
    await mkdir(this.root, { recursive: true });
    await appendFile(join(this.root, MUTATIONS_FILE), `${JSON.stringify(line)}\n`);
  }

  private async unit(name: string): Promise<ServiceUnit | undefined> {
    const text = await readFile(join(this.root, UNITS_DIR, `${name}.service.json`), 'utf8').catch(
      () => undefined,
    );
    return text === undefined ? undefined : (JSON.parse(text) as ServiceUnit);
  }

  private k3sPid(): Promise<number | undefined> {
    return livePid(this.root);
  }

  /** The version the installed k3s artifact names (`k3s version v1.34.2+k3s1`), as `k3s --version` prints. */
  private async k3sVersion(): Promise<string> {
    const text = (await this.readFile(K3S_BINARY)) ?? '';
    return /k3s version (v[0-9][^\s:,]*)/.exec(text)?.[1] ?? 'v0.0.0-sim';
  }

  private async runK3s(command: HostCommand, args: readonly string[]): Promise<CommandResult> {
    if (!existsSync(this.path(K3S_BINARY)))
      return { exitCode: 127, stdout: '', stderr: 'k3s: command not found\n' };
    if (args[0] === '--version' || args[0] === '-v') {
      const version = await this.k3sVersion();
      return { exitCode: 0, stdout: `k3s version ${version} (simulated)\ngo version go1.24.9\n`, stderr: '' };
    }
    if (args[0] !== 'kubectl')
      return {
        exitCode: 1,
        stdout: '',
        stderr: `k3s: the simulated host runs only k3s kubectl and --version\n`,
      };
    const kubectlArgs = args.slice(1);
    const kubeconfig = join(this.root, K3S_KUBECONFIG);
    if (!existsSync(kubeconfig) || (await this.k3sPid()) === undefined)
      return {
        exitCode: 1,
        stdout: '',
        stderr:
          'The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?\n',
      };
    const verb = kubectlArgs.find((a) => !a.startsWith('-'));
    if (verb === 'logs') return this.podLogs(kubectlArgs);
    if (verb === undefined || !READ_ONLY_KUBECTL.has(verb)) await this.record('run', `k3s ${args.join(' ')}`);
    return spawnProcess(['kubectl', '--kubeconfig', kubeconfig, ...kubectlArgs], {
      env: command.env ?? {},
      stdin: command.stdin,
      timeoutMs: command.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    });
  }

  /** `kubectl logs -n NS deployment/NAME [--tail=N]`: kube-sim has no pods; the pod runner's log file. */
  private async podLogs(args: readonly string[]): Promise<CommandResult> {
    let namespace = 'default';
    let tail: number | undefined;
    let target: string | undefined;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] ?? '';
      if (arg === '-n' || arg === '--namespace') namespace = args[++i] ?? namespace;
      else if (arg.startsWith('--namespace=')) namespace = arg.slice(12);
      else if (arg.startsWith('--tail=')) tail = Number(arg.slice(7));
      else if (arg === '--tail') tail = Number(args[++i]);
      else if (!arg.startsWith('-') && arg !== 'logs') target = arg;
    }
    const name = target?.split('/').pop() ?? '';
    const text = await readFile(join(this.root, POD_LOGS, `${namespace}_${name}.log`), 'utf8').catch(
      () => undefined,
    );
    if (text === undefined)
      return {
        exitCode: 1,
        stdout: '',
        stderr: `error: ${target ?? '(none)'} has no logs in namespace ${namespace}\n`,
      };
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    const shown = tail !== undefined && tail >= 0 ? lines.slice(-tail) : lines;
    return { exitCode: 0, stdout: shown.length === 0 ? '' : `${shown.join('\n')}\n`, stderr: '' };
  }

  private async sha256sum(args: readonly string[]): Promise<CommandResult> {
    let stdout = '';
    for (const file of args) {
      const content = await readFile(this.path(file)).catch(() => undefined);
      if (content === undefined)
        return { exitCode: 1, stdout, stderr: `sha256sum: ${file}: No such file or directory\n` };
      stdout += `${createHash('sha256').update(content).digest('hex')}  ${file}\n`;
    }
    return { exitCode: 0, stdout, stderr: '' };
  }

  /** `journalctl -u k3s [-n N]`: k3s-sim's output. */
  private async journal(args: readonly string[]): Promise<CommandResult> {
    const n = args.indexOf('-n');
    const lines = ((await readFile(join(this.root, K3S_LOG), 'utf8').catch(() => '')) || '')
      .split('\n')
      .filter((l) => l !== '');
    const count = n >= 0 ? Number(args[n + 1]) : lines.length;
    return {
      exitCode: 0,
      stdout: lines
        .slice(-count)
        .map((l) => `${l}\n`)
        .join(''),
      stderr: '',
    };
  }
}

/** Every change a simulated host has recorded, oldest first. */
export async function readMutations(root: string): Promise<Mutation[]> {
  const text = await readFile(join(root, MUTATIONS_FILE), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Mutation);
}

/** Stops a simulated host's k3s, if it runs: for tests' cleanup, whatever state they left it in. */
export async function stopSimulatedHost(root: string): Promise<void> {
  await stopK3s(root);
}

async function stopK3s(root: string): Promise<void> {
  const pid = await livePid(root);
  if (pid === undefined) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (alive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL');
      break;
    }
    await sleep(50);
  }
  await rm(join(root, K3S_PID), { force: true });
  await rm(join(root, K3S_READY), { force: true });
}

async function livePid(root: string): Promise<number | undefined> {
  const text = await readFile(join(root, K3S_PID), 'utf8').catch(() => undefined);
  const pid = Number(text?.trim());
  return Number.isSafeInteger(pid) && pid > 0 && alive(pid) ? pid : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
