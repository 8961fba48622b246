/**
 * Everything `nr cluster …` does to the machine it runs on goes through a Host: commands, files,
 * services and what the machine has. `LocalHost` does it for real; `SimulatedHost` does it inside a folder
 * of its own, with a kube-sim standing in for k3s, for tests and the sandbox.
 */
export interface Host {
  /** Said in messages: `this machine`, or `the simulated host in /tmp/…`. */
  readonly description: string;

  /**
   * Runs a program (never through a shell). A non-zero exit is a result, not an error; an error means
   * it could not be started or did not finish in `timeoutMs`.
   */
  run(command: HostCommand): Promise<CommandResult>;

  /** The file's text, or undefined when it does not exist. */
  readFile(path: string): Promise<string | undefined>;
  /** Writes (as root) atomically, creating missing parent folders 0755, with `mode`. */
  writeFile(path: string, content: string | Uint8Array, mode: number): Promise<void>;
  /** A file's or folder's permission bits, or undefined when it does not exist. */
  modeOf(path: string): Promise<number | undefined>;
  /** Removes a file or a folder with what is in it; nothing when it does not exist. */
  remove(path: string): Promise<void>;

  /** Installs (or replaces) a systemd unit, reloads systemd and enables it; does not start it. */
  installService(unit: ServiceUnit): Promise<void>;
  startService(name: string): Promise<void>;
  stopService(name: string): Promise<void>;
  /** Stops, disables and deletes the unit; nothing when there is none. */
  removeService(name: string): Promise<void>;
  serviceState(name: string): Promise<ServiceState>;

  osRelease(): Promise<OsRelease | undefined>;
  cpuCount(): Promise<number>;
  memory(): Promise<MemoryInfo>;
  /** Bytes an unprivileged user may still write on the filesystem holding `path`. */
  freeDiskBytes(path: string): Promise<number>;
  networkInterfaces(): Promise<readonly NetworkInterface[]>;
  /** Whether nothing listens on the port (binding it succeeds). */
  portFree(port: number, protocol: 'tcp' | 'udp'): Promise<boolean>;
  /** Whether `nr` can act as root: it is root, sudo without a password works, sudo asks one, or neither. */
  privilege(): Promise<Privilege>;
  /**
   * The address others use to reach a service this host publishes on `ip`: `ip` itself on a real
   * machine; this machine's loopback for a simulated host, whose services all listen there.
   */
  publishedAddress(ip: string): string;
  /** Resolves a name with the host's resolver; the addresses, or undefined when it does not resolve. */
  resolve(hostname: string): Promise<readonly string[] | undefined>;
}

export interface HostCommand {
  /** The program and its arguments; the program is looked up on PATH. */
  readonly argv: readonly string[];
  /** Added to the environment the host gives programs. */
  readonly env?: Readonly<Record<string, string>>;
  /** Given on standard input: manifests and secrets go here, never on the command line. */
  readonly stdin?: string;
  /** Run as root (`sudo -n` when `nr` is not root). */
  readonly asRoot?: boolean;
  /** Default 120 s. */
  readonly timeoutMs?: number;
}

export interface CommandResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A systemd service: `/etc/systemd/system/{name}.service`. */
export interface ServiceUnit {
  readonly name: string;
  readonly description: string;
  /** The program and its arguments, as ExecStart runs them. */
  readonly execStart: readonly string[];
  /** Environment= lines. The unit file is readable by every user: secrets go in a file of their own. */
  readonly environment?: Readonly<Record<string, string>>;
  /**
   * systemd's Type=: `exec` (the default) counts the service started once its program runs; `notify`
   * waits until the program says it is ready (k3s does), so starting it returns when it can be used.
   */
  readonly type?: 'exec' | 'notify';
}

export type ServiceState = 'active' | 'activating' | 'inactive' | 'failed' | 'not-found';

export interface OsRelease {
  /** `ID` of /etc/os-release, like `ubuntu`. */
  readonly id: string;
  /** `VERSION_ID`, like `22.04`. */
  readonly versionId: string;
  readonly prettyName: string;
}

export interface MemoryInfo {
  readonly totalBytes: number;
  /** MemAvailable (MemFree where the kernel has no MemAvailable). */
  readonly availableBytes: number;
}

export interface NetworkInterface {
  readonly name: string;
  readonly up: boolean;
  readonly loopback: boolean;
  readonly ipv4: readonly string[];
}

export type Privilege = 'root' | 'sudo' | 'sudo-password' | 'none';

/** A command that exited non-zero, with what it printed. */
export class HostCommandError extends Error {
  override readonly name = 'HostCommandError';

  constructor(
    readonly command: HostCommand,
    readonly result: CommandResult,
  ) {
    const said = (result.stderr.trim() || result.stdout.trim()).split('\n').slice(-5).join('\n');
    super(`${formatCommand(command)} exited ${result.exitCode}${said === '' ? '' : `: ${said}`}`);
  }
}

/** Runs the command and returns its stdout; a non-zero exit throws HostCommandError. */
export async function runChecked(host: Host, command: HostCommand): Promise<string> {
  const result = await host.run(command);
  if (result.exitCode !== 0) throw new HostCommandError(command, result);
  return result.stdout;
}

/** The command as a shell would read it: for plans, logs and errors (stdin and env values left out). */
export function formatCommand(command: HostCommand): string {
  const env = Object.keys(command.env ?? {})
    .sort()
    .map((k) => `${k}=…`);
  const words = [...(command.asRoot === true ? ['sudo'] : []), ...env, ...command.argv.map(shellWord)];
  return `${words.join(' ')}${command.stdin === undefined ? '' : ' < (stdin)'}`;
}

function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
