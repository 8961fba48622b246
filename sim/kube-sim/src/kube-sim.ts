import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createApiHandler } from './api-handler.js';
import { bootstrapRbac, TokenAuthenticator, type StaticToken } from './auth/index.js';
import { generateServingCertificates } from './certificates.js';
import { ControllerQueue } from './controller-queue.js';
import { CrdController } from './crd-controller.js';
import { GarbageCollector } from './garbage-collector.js';
import { kubeconfigYaml } from './kubeconfig.js';
import { NamespaceLifecycle } from './namespace-lifecycle.js';
import { ObjectStore } from './object-store.js';
import { ObjectWriter } from './object-writer.js';
import { RbacSnapshot } from './rbac-snapshot.js';
import { ResourceRegistry } from './resource-registry.js';
import { resourceKey } from './resource-type.js';
import { loadState, StateWriter, type PersistedState } from './state-file.js';
import type { WatchStream } from './watch-stream.js';

export interface KubeSimOptions {
  /** `host:port`; port 0 picks a free one. Default `127.0.0.1:0`. */
  listen?: string;
  /** Plain HTTP instead of HTTPS. */
  http?: boolean;
  /** Bearer tokens besides the admin's (kube's static token file entries). */
  tokens?: StaticToken[];
  /** The admin's token (user `admin`, group `system:masters`); random by default. */
  adminToken?: string;
  /** Keep every object (and the CA, admin token and token signing key) in this JSON file across restarts. */
  statePath?: string;
  /** How many past events are kept for watches resuming from a resourceVersion. Default 10000. */
  watchWindow?: number;
  /** How often a watch with `allowWatchBookmarks` gets a BOOKMARK. Default 60 s. */
  bookmarkIntervalMs?: number;
  /** How long a watch without `timeoutSeconds` lasts. Default 30 min. */
  watchTimeoutMs?: number;
}

export interface KubeconfigOptions {
  /** Another identity than the admin's, e.g. a service account's token from TokenRequest. */
  user?: { token: string };
  /** The context's default namespace. */
  namespace?: string;
}

export interface KubeSim {
  /** `https://127.0.0.1:PORT` (or `http://` with `http: true`). */
  url: string;
  /** The CA that signed the serving certificate, in PEM; empty over HTTP. */
  caPem: string;
  adminToken: string;
  /** An admin kubeconfig for this server. */
  kubeconfigYaml: string;
  writeKubeconfig(path: string, options?: KubeconfigOptions): Promise<void>;
  /** Ends every watch and connection and writes the state file, if any. */
  close(): Promise<void>;
}

const DEFAULT_WATCH_WINDOW = 10_000;
const INITIAL_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export async function startKubeSim(options: KubeSimOptions = {}): Promise<KubeSim> {
  const persisted = options.statePath ? await loadState(options.statePath) : undefined;
  const adminToken = options.adminToken ?? persisted?.adminToken ?? randomBytes(24).toString('base64url');
  const signingKey = persisted ? Buffer.from(persisted.signingKey, 'base64') : randomBytes(32);
  const certificates = options.http
    ? undefined
    : (persisted?.certificates ?? (await generateServingCertificates()));

  const store = new ObjectStore(options.watchWindow ?? DEFAULT_WATCH_WINDOW, persisted?.store);
  const registry = new ResourceRegistry();
  const writer = new ObjectWriter(store, registry);
  const queue = new ControllerQueue();
  const crds = new CrdController(store, writer, registry, queue);
  new GarbageCollector(store, writer, registry, queue);
  const namespaces = new NamespaceLifecycle(store, writer, registry, queue);
  const rbac = new RbacSnapshot(store);
  if (!persisted) seed(writer);
  namespaces.reconcileAll();
  crds.reconcileAll();

  const authenticator = new TokenAuthenticator({
    staticTokens: [
      { token: adminToken, username: 'admin', groups: ['system:masters'] },
      ...(options.tokens ?? []),
    ],
    signingKey,
  });
  const state = options.statePath
    ? new StateWriter(options.statePath, (): PersistedState => ({
        store: store.snapshot(),
        adminToken,
        signingKey: signingKey.toString('base64'),
        ...(certificates ? { certificates } : {}),
      }))
    : undefined;
  store.onChange(() => state?.changed());
  state?.changed();

  const watches = new Set<WatchStream>();
  let serverAddress = '';
  const handler = createApiHandler({
    store,
    registry,
    writer,
    authenticator,
    rbac,
    watches,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000,
    watchTimeoutMs: options.watchTimeoutMs ?? 30 * 60_000,
    serverAddress: () => serverAddress,
  });
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    handler(req, res).catch(() => {
      // The handler answers every error itself; this only guards against a broken socket.
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  };
  const server: Server = certificates
    ? createHttpsServer({ key: certificates.server.key, cert: certificates.server.cert }, onRequest)
    : createHttpServer(onRequest);
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
  serverAddress = `${shownHost}:${address.port}`;
  const url = `${certificates ? 'https' : 'http'}://${serverAddress}`;
  const caPem = certificates?.ca.cert ?? '';
  const kubeconfigFor = (kc: KubeconfigOptions = {}): string =>
    kubeconfigYaml({
      server: url,
      caPem: caPem || undefined,
      token: kc.user?.token ?? adminToken,
      user: kc.user ? 'user' : 'admin',
      ...(kc.namespace ? { namespace: kc.namespace } : {}),
    });
  return {
    url,
    caPem,
    adminToken,
    kubeconfigYaml: kubeconfigFor(),
    writeKubeconfig: (path, kc) => writeFile(path, kubeconfigFor(kc), { mode: 0o600 }),
    close: async () => {
      queue.close();
      for (const watch of [...watches]) watch.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
      await state?.flush();
    },
  };
}

/** What a fresh cluster has: its namespaces and the bootstrap RBAC policy, as real objects. */
function seed(writer: ObjectWriter): void {
  for (const name of INITIAL_NAMESPACES) {
    writer.systemCreate(resourceKey('', 'namespaces'), {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  }
  for (const [key, objects] of RbacSnapshot.seedKeys(bootstrapRbac())) {
    for (const object of objects) writer.systemCreate(key, object);
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
