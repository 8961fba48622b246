import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { promises as dns } from 'node:dns';
import { chmod, mkdir, mkdtemp, open, readFile, rename, rm, stat, statfs, unlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';

import {
  HostCommandError,
  runChecked,
  type CommandResult,
  type Host,
  type HostCommand,
  type MemoryInfo,
  type NetworkInterface,
  type OsRelease,
  type Privilege,
  type ServiceState,
  type ServiceUnit,
} from './host.js';
import { parseIpAddresses, parseMeminfo, parseOsRelease } from './linux-facts.js';
import { spawnProcess, type ProcessRunner } from './process-runner.js';
import { parseServiceState, renderServiceUnit, STATE_PROPERTIES, unitPath } from './systemd-unit.js';

const DEFAULT_TIMEOUT_MS = 120_000;
// os-release(5): the first is the admin's, the second the distribution's.
const OS_RELEASE_PATHS = ['/etc/os-release', '/usr/lib/os-release'];
// Ubuntu's sudoers lets these groups use sudo, with their password.
const SUDO_GROUPS = new Set(['sudo', 'admin', 'wheel']);
// The resolver's answers for a name that does not resolve (or a resolver that does not answer).
const UNRESOLVED = new Set(['ENOTFOUND', 'ENODATA', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'ESERVFAIL']);

export interface LocalHostOptions {
  /** How programs are run; `spawnProcess` unless a test records them. */
  readonly runner?: ProcessRunner;
  /** The user `nr` runs as; `process.getuid()` unless a test pretends. */
  readonly uid?: number;
}

/** The machine `nr` runs on: an Ubuntu VM with systemd. */
export class LocalHost implements Host {
  readonly description = 'this machine';
  readonly #runner: ProcessRunner;
  readonly #isRoot: boolean;

  constructor(options: LocalHostOptions = {}) {
    this.#runner = options.runner ?? spawnProcess;
    this.#isRoot = (options.uid ?? process.getuid?.()) === 0;
  }

  run(command: HostCommand): Promise<CommandResult> {
    const env = command.env ?? {};
    const argv =
      command.asRoot === true && !this.#isRoot
        ? [...sudo(Object.keys(env)), '--', ...command.argv]
        : [...command.argv];
    return this.#runner(argv, {
      env,
      stdin: command.stdin,
      timeoutMs: command.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    });
  }

  async readFile(path: string): Promise<string | undefined> {
    checkPath(path);
    try {
      return await readFile(path, 'utf8');
    } catch (e: unknown) {
      if (isMissing(e)) return undefined;
      if (errorCode(e) !== 'EACCES' || this.#isRoot) throw e;
    }
    // Root's own files (k3s writes its kubeconfig 0600) are read through sudo.
    if (!(await this.#existsAsRoot(path))) return undefined;
    return runChecked(this, { argv: ['cat', '--', path], asRoot: true });
  }

  async writeFile(path: string, content: string | Uint8Array, mode: number): Promise<void> {
    checkPath(path);
    if (this.#isRoot) {
      await writeAtomically(path, content, mode);
      return;
    }
    // Not being root, nr stages the content in a folder only it can read, then has root copy it in with
    // `install`, which creates the copy with its owner and mode already set: no moment when a secret sits
    // in the destination folder readable by others, and no content on a command line. The copy lands
    // beside the destination and is renamed over it, so a reader sees the old file or the new one.
    // Folders `install -D` creates are 0755 (sudo's umask is 022).
    const folder = await mkdtemp(join(tmpdir(), 'nr-'));
    try {
      const staged = join(folder, basename(path));
      await writeAtomically(staged, content, 0o600);
      const beside = stagingPath(path);
      const octal = mode.toString(8).padStart(4, '0');
      await runChecked(this, {
        argv: ['install', '-D', '-m', octal, '-o', 'root', '-g', 'root', '--', staged, beside],
        asRoot: true,
      });
      const move: HostCommand = { argv: ['mv', '-f', '-T', '--', beside, path], asRoot: true };
      const moved = await this.run(move);
      if (moved.exitCode !== 0) {
        await this.run({ argv: ['rm', '-f', '--', beside], asRoot: true });
        throw new HostCommandError(move, moved);
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  async modeOf(path: string): Promise<number | undefined> {
    checkPath(path);
    try {
      return (await stat(path)).mode & 0o7777;
    } catch (e: unknown) {
      if (isMissing(e)) return undefined;
      if (errorCode(e) !== 'EACCES' || this.#isRoot) throw e;
    }
    if (!(await this.#existsAsRoot(path))) return undefined;
    return parseInt(await runChecked(this, { argv: ['stat', '-c', '%a', '--', path], asRoot: true }), 8);
  }

  async remove(path: string): Promise<void> {
    checkPath(path);
    if (this.#isRoot) await rm(path, { recursive: true, force: true });
    else await runChecked(this, { argv: ['rm', '-rf', '--', path], asRoot: true });
  }

  async installService(unit: ServiceUnit): Promise<void> {
    await this.writeFile(unitPath(unit.name), renderServiceUnit(unit), 0o644);
    await this.#systemctl('daemon-reload');
    await this.#systemctl('enable', unit.name);
  }

  async startService(name: string): Promise<void> {
    await this.#systemctl('enable', '--now', name);
  }

  async stopService(name: string): Promise<void> {
    await this.#systemctl('stop', name);
  }

  async removeService(name: string): Promise<void> {
    const path = unitPath(name);
    if (!(await this.#existsAsRoot(path))) return;
    await this.#systemctl('disable', '--now', name);
    await this.remove(path);
    await this.#systemctl('daemon-reload');
  }

  async serviceState(name: string): Promise<ServiceState> {
    const shown = await runChecked(this, {
      argv: ['systemctl', 'show', name, `--property=${STATE_PROPERTIES}`],
    });
    return parseServiceState(shown);
  }

  async osRelease(): Promise<OsRelease | undefined> {
    for (const path of OS_RELEASE_PATHS) {
      const text = await this.readFile(path);
      if (text !== undefined) return parseOsRelease(text);
    }
    return undefined;
  }

  cpuCount(): Promise<number> {
    return Promise.resolve(availableParallelism());
  }

  async memory(): Promise<MemoryInfo> {
    return parseMeminfo(await readFile('/proc/meminfo', 'utf8'));
  }

  async freeDiskBytes(path: string): Promise<number> {
    const fs = await statfs(path);
    return fs.bavail * fs.bsize;
  }

  async networkInterfaces(): Promise<readonly NetworkInterface[]> {
    return parseIpAddresses(await runChecked(this, { argv: ['ip', '-j', '-4', 'address', 'show'] }));
  }

  portFree(port: number, protocol: 'tcp' | 'udp'): Promise<boolean> {
    return protocol === 'tcp' ? tcpPortFree(port) : udpPortFree(port);
  }

  async privilege(): Promise<Privilege> {
    if (this.#isRoot) return 'root';
    try {
      if ((await this.run({ argv: ['sudo', '-n', 'true'] })).exitCode === 0) return 'sudo';
      // sudo says the same ("a password is required") to a user it would never let in: the groups tell.
      const groups = await runChecked(this, { argv: ['id', '-Gn'] });
      return groups.split(/\s+/).some((g) => SUDO_GROUPS.has(g)) ? 'sudo-password' : 'none';
    } catch {
      // No sudo on the machine.
      return 'none';
    }
  }

  publishedAddress(ip: string): string {
    return ip;
  }

  async resolve(hostname: string): Promise<readonly string[] | undefined> {
    try {
      return (await dns.lookup(hostname, { all: true })).map((a) => a.address);
    } catch (e: unknown) {
      if (UNRESOLVED.has(errorCode(e) ?? '')) return undefined;
      throw e;
    }
  }

  async #existsAsRoot(path: string): Promise<boolean> {
    return (await this.run({ argv: ['test', '-e', path], asRoot: true })).exitCode === 0;
  }

  async #systemctl(...args: string[]): Promise<void> {
    await runChecked(this, { argv: ['systemctl', ...args], asRoot: true });
  }
}

/**
 * `-n`: never ask for a password (fail instead). The environment goes by name only (sudo takes the
 * values from nr's own environment, where the runner puts them), so secrets stay off the command line.
 */
function sudo(envNames: readonly string[]): string[] {
  return envNames.length === 0 ? ['sudo', '-n'] : ['sudo', '-n', `--preserve-env=${envNames.join(',')}`];
}

async function writeAtomically(path: string, content: string | Uint8Array, mode: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o755 });
  const beside = stagingPath(path);
  const file = await open(beside, 'wx', mode);
  try {
    await file.writeFile(content);
    await file.sync();
  } catch (e: unknown) {
    await file.close();
    await unlink(beside);
    throw e;
  }
  await file.close();
  try {
    // open's mode is reduced by the umask.
    await chmod(beside, mode);
    await rename(beside, path);
  } catch (e: unknown) {
    await rm(beside, { force: true });
    throw e;
  }
}

function stagingPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.nr-${randomBytes(4).toString('hex')}`);
}

function checkPath(path: string): void {
  if (!isAbsolute(path) || dirname(path) === path) {
    throw new Error(`a host path must be absolute and not /: ${path}`);
  }
}

function errorCode(e: unknown): string | undefined {
  return e instanceof Error && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}

function isMissing(e: unknown): boolean {
  return errorCode(e) === 'ENOENT' || errorCode(e) === 'ENOTDIR';
}

function tcpPortFree(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (e: Error) => {
      if (errorCode(e) === 'EADDRINUSE') resolve(false);
      else reject(e);
    });
    server.listen({ port, host: '0.0.0.0', exclusive: true }, () => {
      server.close(() => {
        resolve(true);
      });
    });
  });
}

function udpPortFree(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = createSocket({ type: 'udp4', reuseAddr: false });
    socket.once('error', (e: Error) => {
      socket.close();
      if (errorCode(e) === 'EADDRINUSE') resolve(false);
      else reject(e);
    });
    socket.bind({ port, address: '0.0.0.0', exclusive: true }, () => {
      socket.close(() => {
        resolve(true);
      });
    });
  });
}
