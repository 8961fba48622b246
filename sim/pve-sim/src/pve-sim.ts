import { X509Certificate, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import selfsigned from 'selfsigned';
import { AccessControl, type TokenSpec, type UserSpec } from './access-control.js';
import { API_PREFIX, createApiHandler, reasonPhrase } from './api-server.js';
import type { ClusterState } from './cluster-state.js';
import { CallLog, FaultInjector } from './fault-injector.js';
import { PveError } from './pve-error.js';
import { PVE_RELEASES, type PveMajor } from './pve-release.js';
import { ResourceSnapshots } from './resource-snapshots.js';
import { accessRoutes } from './routes/access.routes.js';
import { clusterRoutes } from './routes/cluster.routes.js';
import { consoleRoutes } from './routes/console.routes.js';
import { firewallRoutes } from './routes/firewall.routes.js';
import { nodeRoutes } from './routes/node.routes.js';
import { qemuCloneRoutes } from './routes/qemu-clone.routes.js';
import { qemuConfigRoutes } from './routes/qemu-config.routes.js';
import { qemuLifecycleRoutes } from './routes/qemu-lifecycle.routes.js';
import { qemuPowerRoutes } from './routes/qemu-power.routes.js';
import { snapshotRoutes } from './routes/snapshot.routes.js';
import { storageRoutes } from './routes/storage.routes.js';
import { vzdumpRoutes } from './routes/vzdump.routes.js';
import { buildState, defaultScenario, type Scenario } from './scenario.js';
import { createSimControl } from './sim-control.js';
import type { SimCore } from './sim-core.js';
import { StorageLocks } from './storage-locks.js';
import { TaskManager } from './task-manager.js';
import { VncProxies } from './vnc-proxies.js';

export interface PveSimOptions {
  /** `host:port`; port 0 picks a free one. Default `127.0.0.1:0`. */
  listen?: string;
  /** Plain HTTP instead of HTTPS with a generated self-signed certificate. */
  http?: boolean;
  /** Nodes of the default scenario (ignored with `scenario`). Default 3. */
  nodes?: number;
  scenario?: Scenario;
  /** API tokens; without any, one admin token `root@pam!sim` with a random secret. */
  tokens?: TokenSpec[];
  /** Users for ticket login; without any, `root@pam` with a random password. */
  users?: UserSpec[];
  /** How long each task runs. Default 10 ms. */
  taskMs?: number;
  /** How long a 401 is held back (PVE: 3 s). Default 0. */
  authFailDelayMs?: number;
  /** Lag of names and status in `/cluster/resources` after a change. Default 0 (live). */
  resourcesLagMs?: number;
  /** How long a vncproxy waits for its connection (PVE: 10 s). */
  vncConnectTimeoutMs?: number;
  /** How long a clone waits for its target storage's lock (PVE: 60 s). Default 60 s. */
  storageLockTimeoutMs?: number;
  /** The Proxmox VE major release to present (`/version`, node status). Default 8. */
  pveVersion?: PveMajor;
  /** Persist the cluster state in this JSON file across restarts. */
  statePath?: string;
}

export interface PveSim {
  /** `https://127.0.0.1:PORT` (or `http://` with `http: true`). */
  url: string;
  /** `url` + `/api2/json`. */
  apiUrl: string;
  /** SHA-256 fingerprint of the certificate, upper-case hex pairs separated by colons; empty over HTTP. */
  fingerprint: string;
  /** The certificate in PEM; empty over HTTP. */
  certPem: string;
  tokens: TokenSpec[];
  users: UserSpec[];
  /** The simulated cluster as it is now (read it, do not change it behind the API's back). */
  readonly state: ClusterState;
  /** Resolves once every task started so far has stopped. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const STATE_FILE_VERSION = 1;

/** Defaults, applied once. */
function resolveOptions(options: PveSimOptions) {
  return {
    scenario: options.scenario ?? defaultScenario(options.nodes ?? 3),
    tokens: options.tokens?.length ? options.tokens : [{ id: 'root@pam!sim', secret: randomUUID() }],
    users: options.users?.length
      ? options.users
      : [{ userid: 'root@pam', password: randomUUID().slice(0, 12) }],
    release: PVE_RELEASES[options.pveVersion ?? 8],
    authFailDelayMs: options.authFailDelayMs ?? 0,
    settings: {
      taskMs: options.taskMs ?? 10,
      resourcesLagMs: options.resourcesLagMs ?? 0,
      vncConnectTimeoutMs: options.vncConnectTimeoutMs ?? 10_000,
      storageLockTimeoutMs: options.storageLockTimeoutMs ?? 60_000,
    },
  };
}

export async function startPveSim(options: PveSimOptions = {}): Promise<PveSim> {
  const { scenario, tokens, users, release, authFailDelayMs, settings } = resolveOptions(options);
  const persisted = options.statePath ? await loadState(options.statePath) : undefined;
  const store = new StateStore(persisted ?? buildState(scenario), options.statePath);
  const access = new AccessControl(tokens, users);
  const tasks = new TaskManager(settings.taskMs, () => {
    store.changed();
  });
  const vnc = new VncProxies(settings.vncConnectTimeoutMs, () => store.state, access);
  const snapshots = new ResourceSnapshots(settings.resourcesLagMs, () => store.state);
  const core: SimCore = {
    get state() {
      return store.state;
    },
    set state(value: ClusterState) {
      store.state = value;
    },
    tasks,
    access,
    vnc,
    storageLocks: new StorageLocks(settings.storageLockTimeoutMs),
    settings,
    changed: () => {
      store.changed();
    },
  };
  const cert = options.http ? undefined : await generateCertificate();
  const fingerprint = cert ? new X509Certificate(cert.cert).fingerprint256 : '';
  const faults = new FaultInjector();
  const calls = new CallLog();
  const api = createApiHandler({
    core,
    faults,
    calls,
    authFailDelayMs,
    routes: [
      ...accessRoutes(),
      ...clusterRoutes(snapshots, release),
      ...nodeRoutes(fingerprint, release),
      ...qemuConfigRoutes(),
      ...qemuCloneRoutes(),
      ...qemuPowerRoutes(),
      ...qemuLifecycleRoutes(),
      ...snapshotRoutes(),
      ...firewallRoutes(),
      ...storageRoutes(),
      ...vzdumpRoutes(),
      ...consoleRoutes(cert?.cert ?? ''),
    ],
  });
  const control = createSimControl({
    core,
    faults,
    calls,
    reset: () => {
      tasks.clear();
      vnc.close();
      faults.clear();
      calls.clear();
      store.state = buildState(scenario);
      store.changed();
    },
  });

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const handler = path === '/sim' || path.startsWith('/sim/') ? control : api;
    handler(req, res).catch(() => {
      // The handlers answer every error themselves; this only guards against a broken socket.
      if (!res.headersSent) res.writeHead(500, 'internal error');
      res.end();
    });
  };
  const server: Server = cert
    ? createHttpsServer({ key: cert.private, cert: cert.cert }, onRequest)
    : createHttpServer(onRequest);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    handleUpgrade(core, req, socket, head);
  });
  server.on('clientError', (_e, socket) => {
    socket.destroy();
  });
  const { host, port } = parseListen(options.listen ?? '127.0.0.1:0');
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `${cert ? 'https' : 'http'}://${shownHost}:${address.port}`;
  return {
    url,
    apiUrl: `${url}${API_PREFIX}`,
    fingerprint,
    certPem: cert?.cert ?? '',
    tokens,
    users,
    get state() {
      return store.state;
    },
    idle: () => tasks.idle(),
    close: async () => {
      snapshots.close();
      vnc.close();
      tasks.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
      await store.flush();
    },
  };
}

const VNC_WEBSOCKET = /^\/api2\/json\/nodes\/([^/]+)\/qemu\/([^/]+)\/vncwebsocket\/?$/;

function handleUpgrade(core: SimCore, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  socket.on('error', () => undefined);
  try {
    const url = new URL(req.url ?? '/', 'http://sim');
    const m = VNC_WEBSOCKET.exec(url.pathname);
    if (!m) throw new PveError(501, `Method 'GET ${url.pathname}' not implemented`);
    const csrf = req.headers.csrfpreventiontoken;
    const identity = core.access.authenticate(
      req.headers.authorization,
      req.headers.cookie,
      'GET',
      Array.isArray(csrf) ? csrf[0] : csrf,
    );
    const node = decodeURIComponent(m[1] ?? '');
    const vmid = Number(m[2]);
    const port = Number(url.searchParams.get('port'));
    const ticket = url.searchParams.get('vncticket');
    if (!Number.isInteger(vmid) || !Number.isInteger(port) || ticket === null) {
      throw new PveError(400, 'Parameter verification failed.');
    }
    const vm = core.state.vms[vmid];
    if (vm?.node !== node)
      throw new PveError(500, `Configuration file 'nodes/${node}/qemu-server/${vmid}.conf' does not exist`);
    core.vnc.upgrade(req, socket, head, identity, node, vmid, port, ticket);
  } catch (e: unknown) {
    const error = e instanceof PveError ? e : new PveError(500, e instanceof Error ? e.message : String(e));
    socket.end(
      Buffer.from(
        `HTTP/1.1 ${error.status} ${reasonPhrase(error.message)}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
        'latin1',
      ),
    );
  }
}

function parseListen(listen: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(listen) ?? /^()()(\d+)$/.exec(listen);
  if (!m) throw new Error(`--listen wants host:port, got '${listen}'`);
  const port = Number(m[3]);
  if (port > 65535) throw new Error(`--listen: port ${port} is out of range`);
  const host = m[1] ?? m[2] ?? '';
  return { host: host === '' ? '127.0.0.1' : host, port };
}

async function generateCertificate(): Promise<{ cert: string; private: string }> {
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'pve-sim' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 2 * 365 * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { cert: pems.cert, private: pems.private };
}

async function loadState(path: string): Promise<ClusterState | undefined> {
  if (!existsSync(path)) return undefined;
  const parsed = JSON.parse(await readFile(path, 'utf8')) as { version?: number; state?: ClusterState };
  if (parsed.version !== STATE_FILE_VERSION || !parsed.state)
    throw new Error(`${path}: not a pve-sim state file (version ${STATE_FILE_VERSION})`);
  return parsed.state;
}

/** Holds the state and writes it to `path` (atomically, debounced) after changes. */
class StateStore {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    public state: ClusterState,
    private readonly path: string | undefined,
  ) {}

  changed(): void {
    if (!this.path || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.writing = this.writing.then(() => this.write());
    }, 50);
  }

  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.writing = this.writing.then(() => this.write());
    }
    await this.writing;
  }

  private async write(): Promise<void> {
    if (!this.path) return;
    const tmp = `${this.path}.tmp`;
    await writeFile(tmp, JSON.stringify({ version: STATE_FILE_VERSION, state: this.state }));
    await rename(tmp, this.path);
  }
}
