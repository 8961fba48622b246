import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:https';
import { createServer, Socket, type AddressInfo, type Server } from 'node:net';

import type { CloudInitDocuments } from '@noderings/domain';
import type { ApiResource, KubeObject, ProxmoxVMSpec } from '@noderings/kube';
import { installCrds, KubeClient } from '@noderings/kube';
import { startKubeSim, type KubeSim } from '@noderings/kube-sim';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { BaseLogger } from 'pino';

import { SecretBox } from '../../crypto/secret-box.js';
import { migrateToLatest, type Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { createTestDatabase } from '../../db/test-database.test-support.js';
import type { ClaimService } from '../placement/index.js';
import { cloudInitAssociatedData } from '../virtual-machines/index.js';
import { createClaimService } from '../placement/index.js';

const GIB = 2 ** 30;
const GATEWAY = '10.0.0.1';
const NAMESERVER = '10.0.0.53';
/** A node with room for far more VMs than any test orders. */
const INVENTORY = {
  cpuCores: 256,
  cpuCoresAllocated: 0,
  memoryBytes: 1024 * GIB,
  memoryAllocatedBytes: 0,
  storagePools: [{ storageId: 'local-lvm', totalBytes: 100_000 * GIB, allocatedBytes: 0 }],
};

/** What a test's cloud-init holds that must never appear in a ProxmoxVM. */
export const SSH_PUBLIC_KEY =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBm3nJkG4M2vV1Jc7f6kM1oB3pqR8q0z1Vd0mXyZbQ7w dispatch-test';
export const PASSWORD_HASH = '$6$rounds=656000$dispatchsalt$Zq0cJ3mV9kUeYqS0bW1hM8d2Qk7vP4nR6tX5yL0aB';

export function cloudInitFor(vmId: string): CloudInitDocuments {
  return {
    userData: `#cloud-config\nhostname: vm-${vmId.slice(0, 8)}\nssh_authorized_keys:\n  - ${SSH_PUBLIC_KEY}\npassword: ${PASSWORD_HASH}\n`,
    vendorData: '#cloud-config\npackages: [qemu-guest-agent]\n',
  };
}

export interface TestDb {
  readonly db: Db;
  /** The database's URL, for a second connection pool (another replica, or one behind a proxy). */
  readonly url: string;
  close(): Promise<void>;
}

/** A fresh database on the machine's PostgreSQL, migrated. */
export async function openTestDb(): Promise<TestDb> {
  const database = await createTestDatabase('postgres');
  if (!('url' in database.location)) throw new Error('expected a PostgreSQL database');
  const url = database.location.url;
  const db = openPool(url);
  try {
    await migrateToLatest(db);
  } catch (e: unknown) {
    await db.destroy();
    await database.drop();
    throw e;
  }
  return {
    db,
    url,
    close: async () => {
      try {
        await db.destroy();
      } finally {
        await database.drop();
      }
    },
  };
}

/**
 * A connection pool that survives its connections being cut (a proxy going away, the database dropped
 * while a connection it ended is still closing): pg reports a lost connection as an 'error' event, by the
 * pool when idle and by the client when in use, and an event nobody listens to ends the process. The
 * queries it cut fail on their own.
 */
export function openPool(url: string, max = 10): Db {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** A provider selling one plan on one node of an agent, and a client buying it: as the order flow finds them. */
export interface Seller {
  readonly clientOrganizationId: string;
  readonly providerOrganizationId: string;
  readonly planId: string;
  readonly agentId: string;
  readonly platformId: string;
  readonly nodeId: string;
  readonly nodeName: string;
  readonly prefixId: string;
}

/** Written straight into the database (the API's own tests cover how providers set this up). */
export async function seedSeller(db: Db, nodeName = 'pve1'): Promise<Seller> {
  const one = async (query: ReturnType<typeof sql<{ id: string }>>): Promise<string> => {
    const id = (await query.execute(db)).rows[0]?.id;
    if (id === undefined) throw new Error('nothing inserted');
    return id;
  };
  const provider = await one(sql`INSERT INTO organizations (name, type, is_verified, verified_at)
    VALUES (${`Provider ${randomUUID()}`}, 'ORGANIZATION_TYPE_PROVIDER', true, now()) RETURNING id`);
  const client = await one(sql`INSERT INTO organizations (name, type)
    VALUES (${`Client ${randomUUID()}`}, 'ORGANIZATION_TYPE_CLIENT') RETURNING id`);
  const region = await one(sql`INSERT INTO regions (organization_id, city_id, datacenter_id)
    VALUES (${provider}, 'de-fra', 'own-facility') RETURNING id`);
  const agent = await one(sql`INSERT INTO agents (organization_id, name, agent_public_ip, gateway_region,
      hypervisor_driver, provisioned, inbound_peering_state, service_status, updated_at)
    VALUES (${provider}, ${`agent ${randomUUID()}`}, '203.0.113.10', 'AGENT_GATEWAY_REGION_AMS01', 'proxmox', true,
      'INBOUND_PEERING_STATE_READY', 'SERVICE_STATUS_ONLINE', now()) RETURNING id`);
  const platform = await one(sql`INSERT INTO platforms (organization_id, name, endpoint_url, driver, agent_id,
      service_status, updated_at)
    VALUES (${provider}, ${`platform ${randomUUID()}`}, 'https://pve.dispatch.test:8006', 'PLATFORM_DRIVER_PROXMOX',
      ${agent}, 'SERVICE_STATUS_ONLINE', now()) RETURNING id`);
  const network = await one(sql`INSERT INTO ipam_networks (organization_id, name, dns_servers)
    VALUES (${provider}, 'public', ${[NAMESERVER]}) RETURNING id`);
  const prefix = await one(sql`INSERT INTO ipam_prefixes (organization_id, network_id, cidr, family, gateway,
      allocation_strategy, vm_assignment_prefix_length)
    VALUES (${provider}, ${network}, '10.0.0.0/16', 'ipv4', ${GATEWAY}, 'ALLOCATION_STRATEGY_SEQUENTIAL', 32)
    RETURNING id`);
  const node = await one(sql`INSERT INTO nodes (organization_id, platform_id, region_id, name, service_status,
      maintenance_mode, vmid_seed, vm_storage_destination, backup_storage_destination, backup_storage_compression,
      cpu_overallocate_percent, memory_overallocate_percent, storage_overallocate_percent, compute_type,
      network_bridge, network_name, network_model, network_vlan_id, mac_address_prefix, proxmox_cpu_type,
      inventory, network_id, updated_at)
    VALUES (${provider}, ${platform}, ${region}, ${nodeName}, 'SERVICE_STATUS_ONLINE', false, 1000, 'local-lvm',
      'local', 'BACKUP_STORAGE_COMPRESSION_ZSTD', 100, 100, 100, 'NODE_COMPUTE_TYPE_SHARED', 'vmbr0', 'net0',
      'virtio', 0, 'BC:24:11', 'host', ${JSON.stringify(INVENTORY)}::jsonb, ${network}, now()) RETURNING id`);
  const plan = await one(sql`INSERT INTO plans (organization_id, code, name, compute_category, compute_type,
      vcpus, ram_gb, disk_gb, bandwidth_allowance_gb, bandwidth_period, network_rate_limit_mbps, cpu_units,
      cpu_limit, billing_type, currency, setup_fee, trial_days, is_public, on_credit_exhaustion, updated_at)
    VALUES (${provider}, 'SC-GC-1C-1G-10', 'Small', 'COMPUTE_CATEGORY_SHARED_COMPUTE', 'COMPUTE_TYPE_GENERAL_COMPUTE',
      1, 1, 10, 0, 'BILLING_PERIOD_MONTH', 0, 1024, 0, 'BILLING_TYPE_SUBSCRIPTION', 'EUR', 0, 0, true,
      'suspend', now()) RETURNING id`);
  await sql`INSERT INTO plan_regions (plan_id, region_id, position) VALUES (${plan}, ${region}, 0)`.execute(
    db,
  );
  await sql`INSERT INTO plan_nodes (plan_id, node_id, position) VALUES (${plan}, ${node}, 0)`.execute(db);
  return {
    clientOrganizationId: client,
    providerOrganizationId: provider,
    planId: plan,
    agentId: agent,
    platformId: platform,
    nodeId: node,
    nodeName,
    prefixId: prefix,
  };
}

/** What the tests keep of an order: the row's id and the spec it was given. */
export interface OrderedVm {
  readonly id: string;
  readonly spec: Omit<ProxmoxVMSpec, 'cloudInitSecretRef' | 'powerState' | 'rebootRequestedAt' | 'tags'>;
  readonly cloudInit: CloudInitDocuments;
}

let ordered = 0;

/**
 * What the order flow does: a claim holding a VMID, a MAC and an address, then the VM row with its spec
 * and sealed cloud-init. The claim is written as the placement benchmark writes it, not through
 * `ClaimService.claim`: placement has tests of its own, and these need only a claim to release.
 */
export async function orderVm(
  world: { db: Db; secretBox: SecretBox; seller: Seller },
  tags: readonly string[] = ['customer-a'],
): Promise<OrderedVm> {
  const { db, secretBox, seller } = world;
  ordered += 1;
  const id = randomUUID();
  const vmid = 1000 + ordered;
  const mac = `BC:24:11:${[16, 8, 0].map((s) => ((ordered >> s) & 0xff).toString(16).toUpperCase().padStart(2, '0')).join(':')}`;
  const address = `10.0.${String(1 + Math.floor(ordered / 250))}.${String(1 + (ordered % 250))}`;
  await db.transaction().execute(async (tx) => {
    const allocation = await tx
      .insertInto('ip_allocations')
      .values({
        prefix_id: seller.prefixId,
        organization_id: seller.providerOrganizationId,
        claim_id: id,
        address,
        allocated_cidr: `${address}/16`,
        allocation_kind: 'ipv4_host',
        status: 'IP_ALLOCATION_STATUS_ACTIVE',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('vm_claims')
      .values({
        id,
        client_organization_id: seller.clientOrganizationId,
        provider_organization_id: seller.providerOrganizationId,
        plan_id: seller.planId,
        plan_revision: 1,
        node_id: seller.nodeId,
        platform_id: seller.platformId,
        vcpus: 1,
        ram_gb: 1,
        disk_gb: 10,
        vmid,
        mac_address: mac,
        ipv4_allocation_id: allocation.id,
        ipv6_allocation_id: null,
        status: 'ACTIVE',
      })
      .execute();
  });
  const spec: OrderedVm['spec'] = {
    vmId: id,
    node: seller.nodeName,
    vmid,
    templateVmid: 9000,
    cpu: { cores: 1, sockets: 1, type: 'host', units: 1024, limit: 0 },
    memoryMiB: 1024,
    disk: { storage: 'local-lvm', sizeGiB: 10 },
    network: {
      bridge: 'vmbr0',
      device: 'net0',
      model: 'virtio',
      vlan: 0,
      mac,
      rateLimitMBps: 0,
      ipv4: { address: `${address}/16`, gateway: GATEWAY },
      nameservers: [NAMESERVER],
    },
    smtpBlocked: true,
  };
  const cloudInit = cloudInitFor(id);
  await db
    .insertInto('virtual_machines')
    .values({
      id,
      client_organization_id: seller.clientOrganizationId,
      provider_organization_id: seller.providerOrganizationId,
      plan_id: seller.planId,
      agent_id: seller.agentId,
      node_id: seller.nodeId,
      idempotency_key: randomUUID(),
      request_fingerprint: 'test',
      hostname: `vm-${id.slice(0, 8)}`,
      distro: 'debian-12',
      tags: [...tags],
      spec: JSON.stringify(spec),
      cloud_init_ciphertext: secretBox.seal(JSON.stringify(cloudInit), cloudInitAssociatedData(id)),
      updated_at: new Date(),
    })
    .execute();
  return { id, spec, cloudInit };
}

/** What the API does on a change: a new generation, due at once. */
export async function changeVm(
  db: Db,
  id: string,
  change: { desiredState?: 'ABSENT'; desiredPowerState?: 'Running' | 'Stopped'; rebootRequestedAt?: Date },
): Promise<void> {
  await db
    .updateTable('virtual_machines')
    .set((eb) => ({
      ...(change.desiredState !== undefined && { desired_state: change.desiredState }),
      ...(change.desiredPowerState !== undefined && { desired_power_state: change.desiredPowerState }),
      ...(change.rebootRequestedAt !== undefined && { reboot_requested_at: change.rebootRequestedAt }),
      generation: eb('generation', '+', 1),
      next_dispatch_at: sql<Date>`now()`,
      dispatch_attempts: 0,
    }))
    .where('id', '=', id)
    .execute();
}

export function vmRow(db: Db, id: string) {
  return db.selectFrom('virtual_machines').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function claimStatus(db: Db, id: string): Promise<string> {
  const claim = await db
    .selectFrom('vm_claims')
    .select('status')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return claim.status;
}

export interface World {
  readonly db: Db;
  readonly secretBox: SecretBox;
  readonly claims: ClaimService;
  readonly seller: Seller;
}

export function newWorld(db: Db, seller: Seller): World {
  return { db, secretBox: new SecretBox(randomBytes(32)), claims: createClaimService(db), seller };
}

/** A kube-sim standing in for agent clusters, with our CRDs, and the admin's client for the tests' own looks. */
export interface AgentClusterSim {
  readonly sim: KubeSim;
  readonly admin: KubeClient;
  /**
   * Sets the simulator up for an agent as `nr` sets up its cluster (the operator namespace, and the control
   * plane's service account with its Role there only) and returns the control plane's kubeconfig. `server`
   * replaces the simulator's address (a proxy in front of it).
   */
  peerAgent(agentId: string, server?: string): Promise<string>;
  /** A token of another service account of the namespace (its `default` one has no Role). */
  tokenOf(namespace: string, account: string): Promise<string>;
  close(): Promise<void>;
}

function rbac(kind: string, plural: string): ApiResource<KubeObject> {
  return {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind,
    plural,
    namespaced: true,
    hasStatus: false,
  };
}

const serviceAccounts: ApiResource<KubeObject> = {
  group: '',
  version: 'v1',
  kind: 'ServiceAccount',
  plural: 'serviceaccounts',
  namespaced: true,
  hasStatus: false,
};

const CONTROL_PLANE_ACCOUNT = 'noderings-control-plane';
const CUSTOM_RESOURCES = ['proxmoxvms', 'vncrequests', 'firewallrulesets', 'vmbackups', 'vmsnapshots'];
const WRITE = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

export async function startAgentClusterSim(): Promise<AgentClusterSim> {
  const sim = await startKubeSim({ listen: '127.0.0.1:0' });
  const admin = new KubeClient({ kubeconfigYaml: sim.kubeconfigYaml });
  const close = async (): Promise<void> => {
    try {
      await admin.close();
    } finally {
      await sim.close();
    }
  };
  try {
    await installCrds(admin.customResourceDefinitions);
    await admin.namespaces.create({ metadata: { name: 'proxmox-system' } });
    await admin.secrets.create({
      metadata: { namespace: 'proxmox-system', name: 'proxmox-default' },
      stringData: { PROXMOX_TOKEN_SECRET: 'never-readable-by-the-control-plane' },
    });
  } catch (e: unknown) {
    await close();
    throw e;
  }
  return {
    sim,
    admin,
    close,
    tokenOf: (namespace, account) => requestToken(sim, namespace, account),
    async peerAgent(agentId, server = sim.url) {
      const namespace = `${agentId}-operator`;
      await admin.namespaces.create({ metadata: { name: namespace } });
      await admin.resource(serviceAccounts).create({
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: CONTROL_PLANE_ACCOUNT, namespace },
      });
      // The Role of deploy/src/control-plane-rbac.ts (DESIGN §3.2).
      await admin.resource(rbac('Role', 'roles')).create({
        metadata: { name: CONTROL_PLANE_ACCOUNT, namespace },
        rules: [
          { apiGroups: ['vm.noderings.com'], resources: CUSTOM_RESOURCES, verbs: WRITE },
          {
            apiGroups: ['vm.noderings.com'],
            resources: CUSTOM_RESOURCES.map((r) => `${r}/status`),
            verbs: ['get'],
          },
          { apiGroups: [''], resources: ['secrets'], verbs: WRITE },
          {
            apiGroups: ['vm.noderings.com'],
            resources: ['proxmoxinventories'],
            verbs: ['get', 'list', 'watch'],
          },
        ],
      } as KubeObject);
      await admin.resource(rbac('RoleBinding', 'rolebindings')).create({
        metadata: { name: CONTROL_PLANE_ACCOUNT, namespace },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: CONTROL_PLANE_ACCOUNT },
        subjects: [{ kind: 'ServiceAccount', name: CONTROL_PLANE_ACCOUNT, namespace }],
      } as KubeObject);
      return kubeconfigFor(sim, await requestToken(sim, namespace, CONTROL_PLANE_ACCOUNT), server);
    },
  };
}

/** A kubeconfig as an agent uploads it: the cluster's CA and a bearer token (JSON is YAML). */
export function kubeconfigFor(sim: KubeSim, token: string, server = sim.url): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'agent-cluster',
        cluster: { server, 'certificate-authority-data': Buffer.from(sim.caPem).toString('base64') },
      },
    ],
    users: [{ name: CONTROL_PLANE_ACCOUNT, user: { token } }],
    contexts: [{ name: 'agent', context: { cluster: 'agent-cluster', user: CONTROL_PLANE_ACCOUNT } }],
    'current-context': 'agent',
  });
}

/** A TokenRequest as the admin (`kubectl create token`), which KubeClient has no method for. */
function requestToken(sim: KubeSim, namespace: string, account: string): Promise<string> {
  const payload = Buffer.from(
    JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }),
  );
  const path = `/api/v1/namespaces/${namespace}/serviceaccounts/${account}/token`;
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, sim.url),
      {
        method: 'POST',
        ca: sim.caPem,
        headers: {
          authorization: `Bearer ${sim.adminToken}`,
          'content-type': 'application/json',
          'content-length': String(payload.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            status?: { token?: unknown };
          };
          const token = answer.status?.token;
          if (typeof token === 'string') resolve(token);
          else reject(new Error(`POST ${path} answered ${String(res.statusCode)}`));
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * A TCP proxy on a port of its own: `cut` closes it and severs every connection through it, as a network
 * outage (or the death of the process on one side) would; `restore` listens on the same port again.
 */
export class TcpProxy {
  #server: Server | undefined;
  readonly #sockets = new Set<Socket>();
  #port = 0;

  private constructor(private readonly target: { host: string; port: number }) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target);
    await proxy.restore();
    return proxy;
  }

  get port(): number {
    return this.#port;
  }

  async restore(): Promise<void> {
    if (this.#server !== undefined) return;
    const server = createServer((client) => {
      const upstream = new Socket();
      this.#track(client);
      this.#track(upstream);
      upstream.connect(this.target.port, this.target.host);
      client.pipe(upstream).pipe(client);
      const end = (): void => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, '127.0.0.1', () => {
        resolve();
      });
    });
    this.#port = (server.address() as AddressInfo).port;
    this.#server = server;
  }

  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    if (server !== undefined)
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
  }

  #track(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
  }
}

/** A logger that keeps every entry, as pino's (object, message) calls give them. */
export interface RecordingLogger extends Pick<BaseLogger, 'info' | 'warn' | 'error'> {
  readonly entries: { level: string; msg: string; fields: Record<string, unknown> }[];
  messages(msg: string): Record<string, unknown>[];
}

export function recordingLogger(): RecordingLogger {
  const entries: RecordingLogger['entries'] = [];
  const at =
    (level: string) =>
    (fields: unknown, msg?: unknown): void => {
      entries.push({
        level,
        msg: typeof msg === 'string' ? msg : typeof fields === 'string' ? fields : '',
        fields: typeof fields === 'object' && fields !== null ? (fields as Record<string, unknown>) : {},
      });
    };
  return {
    entries,
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    messages: (msg) => entries.filter((e) => e.msg === msg).map((e) => e.fields),
  };
}

/** Polls `check` until it stops throwing, or rethrows its last error after `timeoutMs`. */
export async function eventually<T>(
  check: () => T | Promise<T>,
  timeoutMs = 15_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (e: unknown) {
      if (Date.now() > deadline) throw e;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
