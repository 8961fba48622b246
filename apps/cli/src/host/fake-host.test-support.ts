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
import { unitPath } from './systemd-unit.js';

const GiB = 1024 ** 3;

/** What a FakeHost says about itself. */
export interface FakeHostFacts {
  readonly osRelease: OsRelease | undefined;
  readonly cpus: number;
  readonly memory: MemoryInfo;
  /** Free bytes on every filesystem. */
  readonly freeDiskBytes: number;
  readonly interfaces: readonly NetworkInterface[];
  /** Ports something listens on, like `6443/tcp`. */
  readonly busyPorts: readonly string[];
  readonly privilege: Privilege;
  /** The names the resolver knows, and their addresses. */
  readonly names: Readonly<Record<string, readonly string[]>>;
}

/** An Ubuntu 24.04 VM that meets every requirement of `nr cluster register`, at 203.0.113.7. */
const HEALTHY_FACTS: FakeHostFacts = {
  osRelease: { id: 'ubuntu', versionId: '24.04', prettyName: 'Ubuntu 24.04.1 LTS' },
  cpus: 4,
  memory: { totalBytes: 8 * GiB, availableBytes: 6 * GiB },
  freeDiskBytes: 40 * GiB,
  interfaces: [
    { name: 'lo', up: true, loopback: true, ipv4: ['127.0.0.1'] },
    { name: 'ens18', up: true, loopback: false, ipv4: ['203.0.113.7'] },
  ],
  busyPorts: [],
  privilege: 'root',
  names: { 'api.example.com': ['198.51.100.10'] },
};

interface FakeFile {
  readonly content: string | Uint8Array;
  readonly mode: number;
}

interface FakeService {
  readonly unit: ServiceUnit;
  state: ServiceState;
}

/**
 * A Host in memory: facts that tests set, files in a map, services that start and stop when told, and
 * the list of commands run (each answered by `answer`, exit 0 by default).
 */
export class FakeHost implements Host {
  readonly description = 'the fake host';
  facts: FakeHostFacts;
  readonly files = new Map<string, FakeFile>();
  readonly services = new Map<string, FakeService>();
  readonly commands: HostCommand[] = [];
  answer: (command: HostCommand) => Partial<CommandResult> = () => ({});

  constructor(facts: Partial<FakeHostFacts> = {}, files: Readonly<Record<string, string>> = {}) {
    this.facts = { ...HEALTHY_FACTS, ...facts };
    for (const [path, content] of Object.entries(files)) this.files.set(path, { content, mode: 0o644 });
  }

  run(command: HostCommand): Promise<CommandResult> {
    this.commands.push(command);
    return Promise.resolve({ exitCode: 0, stdout: '', stderr: '', ...this.answer(command) });
  }

  readFile(path: string): Promise<string | undefined> {
    const file = this.files.get(path);
    if (file === undefined) return Promise.resolve(undefined);
    return Promise.resolve(
      typeof file.content === 'string' ? file.content : new TextDecoder().decode(file.content),
    );
  }

  writeFile(path: string, content: string | Uint8Array, mode: number): Promise<void> {
    this.files.set(path, { content, mode });
    return Promise.resolve();
  }

  modeOf(path: string): Promise<number | undefined> {
    const file = this.files.get(path);
    if (file !== undefined) return Promise.resolve(file.mode);
    // A folder is there while a file is in it.
    return Promise.resolve(this.#inside(path).length > 0 ? 0o755 : undefined);
  }

  remove(path: string): Promise<void> {
    this.files.delete(path);
    for (const inside of this.#inside(path)) this.files.delete(inside);
    return Promise.resolve();
  }

  installService(unit: ServiceUnit): Promise<void> {
    this.files.set(unitPath(unit.name), {
      content: JSON.stringify(unit),
      mode: 0o644,
    });
    const state = this.services.get(unit.name)?.state ?? 'inactive';
    this.services.set(unit.name, { unit, state });
    return Promise.resolve();
  }

  startService(name: string): Promise<void> {
    this.#service(name).state = 'active';
    return Promise.resolve();
  }

  stopService(name: string): Promise<void> {
    this.#service(name).state = 'inactive';
    return Promise.resolve();
  }

  removeService(name: string): Promise<void> {
    this.services.delete(name);
    this.files.delete(unitPath(name));
    return Promise.resolve();
  }

  serviceState(name: string): Promise<ServiceState> {
    return Promise.resolve(this.services.get(name)?.state ?? 'not-found');
  }

  osRelease(): Promise<OsRelease | undefined> {
    return Promise.resolve(this.facts.osRelease);
  }

  cpuCount(): Promise<number> {
    return Promise.resolve(this.facts.cpus);
  }

  memory(): Promise<MemoryInfo> {
    return Promise.resolve(this.facts.memory);
  }

  freeDiskBytes(_path: string): Promise<number> {
    return Promise.resolve(this.facts.freeDiskBytes);
  }

  networkInterfaces(): Promise<readonly NetworkInterface[]> {
    return Promise.resolve(this.facts.interfaces);
  }

  portFree(port: number, protocol: 'tcp' | 'udp'): Promise<boolean> {
    return Promise.resolve(!this.facts.busyPorts.includes(`${port}/${protocol}`));
  }

  privilege(): Promise<Privilege> {
    return Promise.resolve(this.facts.privilege);
  }

  publishedAddress(ip: string): string {
    return ip;
  }

  resolve(hostname: string): Promise<readonly string[] | undefined> {
    return Promise.resolve(this.facts.names[hostname]);
  }

  #inside(folder: string): string[] {
    const prefix = folder.endsWith('/') ? folder : `${folder}/`;
    return [...this.files.keys()].filter((p) => p.startsWith(prefix));
  }

  #service(name: string): FakeService {
    const service = this.services.get(name);
    // systemctl's own words for a unit it does not know.
    if (service === undefined) throw new Error(`Unit ${name}.service not found.`);
    return service;
  }
}
