import { z } from 'zod';

import type { Ticket } from './ticket-session.js';
import type {
  ClusterResource,
  ClusterStatusEntry,
  ContainerConfig,
  ContainerListEntry,
  EffectivePermissions,
  FirewallOptions,
  FirewallRule,
  GuestResource,
  NodeListEntry,
  NodeResource,
  NodeStatus,
  NodeStorage,
  NotBackedUpGuest,
  PendingEntry,
  QdeviceStatus,
  ReplicationJobStatus,
  Snapshot,
  StorageResource,
  StorageStatus,
  StorageVolume,
  Subscription,
  TaskLogLine,
  TaskStatus,
  VersionInfo,
  VmConfig,
  VmListEntry,
  VmStatus,
  VncProxy,
} from './types.js';

/**
 * The shapes of the answers the client reads, as Proxmox sends them. Objects keep fields not named
 * here (Proxmox adds fields between releases); a named field of the wrong type fails.
 */

/** Integers and sizes are JSON numbers, but Perl may serialise one as a string (`"5900"`). */
const pveNumber = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?$/i, 'expected a number')
    .transform(Number),
]);

/** `0`/`1`, which Perl may also send as strings or JSON booleans. */
const pveBoolean = z
  .union([z.literal([0, 1, '0', '1']), z.boolean()])
  .transform((value): 0 | 1 => (value === 1 || value === '1' || value === true ? 1 : 0));

const guestType = z.enum(['qemu', 'lxc']);

export const versionInfoSchema = z.looseObject({
  version: z.string(),
  release: z.string(),
  repoid: z.string(),
}) satisfies z.ZodType<VersionInfo>;

export const ticketSchema = z.looseObject({
  ticket: z.string(),
  CSRFPreventionToken: z.string(),
  username: z.string(),
  clustername: z.string().optional(),
}) satisfies z.ZodType<Ticket>;

const clusterStatusEntry = z.discriminatedUnion('type', [
  z.looseObject({
    type: z.literal('cluster'),
    id: z.literal('cluster'),
    name: z.string(),
    quorate: pveBoolean,
    nodes: pveNumber,
    version: pveNumber,
  }),
  z.looseObject({
    type: z.literal('node'),
    id: z.string(),
    name: z.string(),
    nodeid: pveNumber,
    online: pveBoolean,
    local: pveBoolean,
    ip: z.string(),
    level: z.string(),
  }),
]) satisfies z.ZodType<ClusterStatusEntry>;
export const clusterStatusSchema = z.array(clusterStatusEntry);

const guestResource = z.looseObject({
  id: z.string(),
  type: guestType,
  vmid: pveNumber,
  node: z.string(),
  status: z.string(),
  name: z.string().optional(),
  template: pveBoolean.optional(),
  maxcpu: pveNumber.optional(),
  cpu: pveNumber.optional(),
  maxmem: pveNumber.optional(),
  mem: pveNumber.optional(),
  maxdisk: pveNumber.optional(),
  disk: pveNumber.optional(),
  uptime: pveNumber.optional(),
  netin: pveNumber.optional(),
  netout: pveNumber.optional(),
  diskread: pveNumber.optional(),
  diskwrite: pveNumber.optional(),
  pool: z.string().optional(),
  tags: z.string().optional(),
  lock: z.string().optional(),
  hastate: z.string().optional(),
}) satisfies z.ZodType<GuestResource>;

const nodeResource = z.looseObject({
  id: z.string(),
  type: z.literal('node'),
  node: z.string(),
  status: z.string(),
  cpu: pveNumber.optional(),
  maxcpu: pveNumber.optional(),
  mem: pveNumber.optional(),
  maxmem: pveNumber.optional(),
  disk: pveNumber.optional(),
  maxdisk: pveNumber.optional(),
  uptime: pveNumber.optional(),
  level: z.string().optional(),
}) satisfies z.ZodType<NodeResource>;

const storageResource = z.looseObject({
  id: z.string(),
  type: z.literal('storage'),
  storage: z.string(),
  node: z.string(),
  status: z.string(),
  disk: pveNumber.optional(),
  maxdisk: pveNumber.optional(),
  shared: pveBoolean.optional(),
  content: z.string().optional(),
  plugintype: z.string().optional(),
}) satisfies z.ZodType<StorageResource>;

/**
 * Proxmox also lists `pool` and `sdn` resources, which ClusterResource does not model; they keep only
 * their `id` and `type` checked and are handed out as they came, as before, for callers to skip.
 */
const otherResource = z.looseObject({ id: z.string(), type: z.string() });

function resourceSchema(value: unknown): z.ZodType<ClusterResource> {
  const kind = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
  if (kind === 'qemu' || kind === 'lxc') return guestResource;
  if (kind === 'node') return nodeResource;
  if (kind === 'storage') return storageResource;
  return otherResource as unknown as z.ZodType<ClusterResource>;
}

const clusterResource = z.unknown().transform((value, ctx): ClusterResource => {
  const result = resourceSchema(value).safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  }
  return z.NEVER;
});
export const clusterResourcesSchema = z.array(clusterResource);

export const notBackedUpSchema = z.array(
  z.looseObject({
    vmid: pveNumber,
    type: guestType,
    name: z.string().optional(),
  }) satisfies z.ZodType<NotBackedUpGuest>,
);

export const qdeviceStatusSchema = z.record(z.string(), z.string()) satisfies z.ZodType<QdeviceStatus>;

export const permissionsSchema = z.record(
  z.string(),
  z.record(z.string(), pveBoolean),
) satisfies z.ZodType<EffectivePermissions>;

/** Proxmox sends the next free ID as a JSON string. */
export const nextVmidSchema = z
  .union([z.number().int().positive(), z.string().regex(/^[1-9][0-9]*$/, 'expected a VMID')])
  .transform(Number);

const nodeListEntry = z.looseObject({
  node: z.string(),
  status: z.enum(['online', 'offline', 'unknown']),
  id: z.string().optional(),
  type: z.literal('node').optional(),
  cpu: pveNumber.optional(),
  maxcpu: pveNumber.optional(),
  mem: pveNumber.optional(),
  maxmem: pveNumber.optional(),
  disk: pveNumber.optional(),
  maxdisk: pveNumber.optional(),
  uptime: pveNumber.optional(),
  level: z.string().optional(),
  ssl_fingerprint: z.string().optional(),
}) satisfies z.ZodType<NodeListEntry>;
export const nodeListSchema = z.array(nodeListEntry);

export const nodeStatusSchema = z.looseObject({
  cpu: pveNumber,
  loadavg: z.array(z.string()),
  memory: z.looseObject({ total: pveNumber, used: pveNumber, free: pveNumber }),
  rootfs: z.looseObject({
    total: pveNumber,
    used: pveNumber,
    avail: pveNumber,
    free: pveNumber.optional(),
  }),
  cpuinfo: z.looseObject({
    cpus: pveNumber,
    sockets: pveNumber,
    model: z.string(),
    cores: pveNumber.optional(),
    mhz: z.union([z.string(), z.number().transform(String)]).optional(),
  }),
  uptime: pveNumber,
  pveversion: z.string(),
  kversion: z.string().optional(),
}) satisfies z.ZodType<NodeStatus>;

const guestListFields = {
  vmid: pveNumber,
  status: z.string(),
  cpus: pveNumber.optional(),
  maxmem: pveNumber.optional(),
  maxdisk: pveNumber.optional(),
  uptime: pveNumber.optional(),
  template: pveBoolean.optional(),
  tags: z.string().optional(),
  lock: z.string().optional(),
};

export const vmListSchema = z.array(
  z.looseObject({
    ...guestListFields,
    name: z.string(),
    pid: pveNumber.optional(),
  }) satisfies z.ZodType<VmListEntry>,
);

export const containerListSchema = z.array(
  z.looseObject({
    ...guestListFields,
    name: z.string().optional(),
    type: z.literal('lxc').optional(),
  }) satisfies z.ZodType<ContainerListEntry>,
);

/** Config values are numbers (integers, booleans) or strings (property strings); nothing else. */
const configValue = z.union([z.string(), z.number()]);

export const containerConfigSchema = z
  .object({
    digest: z.string(),
    hostname: z.string().optional(),
    onboot: pveBoolean.optional(),
    template: pveBoolean.optional(),
  })
  .catchall(configValue) satisfies z.ZodType<ContainerConfig>;

const replicationJob = z.looseObject({
  id: z.string(),
  jobnum: pveNumber,
  guest: pveNumber,
  vmtype: guestType,
  type: z.string(),
  source: z.string().optional(),
  target: z.string(),
  schedule: z.string().optional(),
  last_sync: pveNumber.optional(),
  last_try: pveNumber.optional(),
  next_sync: pveNumber.optional(),
  duration: pveNumber.optional(),
  fail_count: pveNumber.optional(),
  error: z.string().optional(),
}) satisfies z.ZodType<ReplicationJobStatus>;
export const replicationJobSchema = replicationJob;
export const replicationJobsSchema = z.array(replicationJob);

export const subscriptionSchema = z.looseObject({
  status: z.string(),
  message: z.string().optional(),
  level: z.string().optional(),
  nextduedate: z.string().optional(),
  productname: z.string().optional(),
  key: z.string().optional(),
  checktime: pveNumber.optional(),
  regdate: z.string().optional(),
  sockets: pveNumber.optional(),
  serverid: z.string().optional(),
  url: z.string().optional(),
}) satisfies z.ZodType<Subscription>;

export const nodeStoragesSchema = z.array(
  z.looseObject({
    storage: z.string(),
    type: z.string(),
    content: z.string(),
    active: pveBoolean.optional(),
    enabled: pveBoolean.optional(),
    shared: pveBoolean.optional(),
    total: pveNumber.optional(),
    used: pveNumber.optional(),
    avail: pveNumber.optional(),
    used_fraction: pveNumber.optional(),
  }) satisfies z.ZodType<NodeStorage>,
);

export const storageStatusSchema = z.looseObject({
  total: pveNumber,
  used: pveNumber,
  avail: pveNumber,
  active: pveBoolean,
  enabled: pveBoolean,
  type: z.string(),
  shared: pveBoolean,
  content: z.string().optional(),
}) satisfies z.ZodType<StorageStatus>;

export const storageContentSchema = z.array(
  z.looseObject({
    volid: z.string(),
    format: z.string(),
    size: pveNumber,
    content: z.string(),
    ctime: pveNumber.optional(),
    vmid: pveNumber.optional(),
    subtype: z.string().optional(),
    notes: z.string().optional(),
    protected: pveBoolean.optional(),
    used: pveNumber.optional(),
    parent: z.string().optional(),
  }) satisfies z.ZodType<StorageVolume>,
);

export const vmConfigSchema = z
  .object({
    digest: z.string(),
    name: z.string().optional(),
    description: z.string().optional(),
    cores: pveNumber.optional(),
    sockets: pveNumber.optional(),
    cpu: z.string().optional(),
    cpuunits: pveNumber.optional(),
    cpulimit: z.union([z.string(), z.number().transform(String)]).optional(),
    memory: z.union([z.string(), z.number().transform(String)]).optional(),
    template: pveBoolean.optional(),
    tags: z.string().optional(),
    lock: z.string().optional(),
    onboot: pveBoolean.optional(),
    protection: pveBoolean.optional(),
    sshkeys: z.string().optional(),
    ipconfig0: z.string().optional(),
    nameserver: z.string().optional(),
    searchdomain: z.string().optional(),
    ciuser: z.string().optional(),
    cipassword: z.string().optional(),
    citype: z.string().optional(),
    cicustom: z.string().optional(),
    smbios1: z.string().optional(),
  })
  .catchall(configValue) satisfies z.ZodType<VmConfig>;

export const pendingSchema = z.array(
  z.looseObject({
    key: z.string(),
    value: configValue.optional(),
    pending: configValue.optional(),
    delete: z.literal([0, 1, 2]).optional(),
  }) satisfies z.ZodType<PendingEntry>,
);

export const vmStatusSchema = z.looseObject({
  status: z.enum(['running', 'stopped']),
  qmpstatus: z.string().optional(),
  name: z.string().optional(),
  vmid: pveNumber,
  cpus: pveNumber.optional(),
  maxmem: pveNumber.optional(),
  mem: pveNumber.optional(),
  maxdisk: pveNumber.optional(),
  disk: pveNumber.optional(),
  uptime: pveNumber.optional(),
  cpu: pveNumber.optional(),
  netin: pveNumber.optional(),
  netout: pveNumber.optional(),
  diskread: pveNumber.optional(),
  diskwrite: pveNumber.optional(),
  pid: pveNumber.optional(),
  lock: z.string().optional(),
  tags: z.string().optional(),
  template: pveBoolean.optional(),
  ha: z.looseObject({ managed: pveBoolean }).optional(),
  agent: pveBoolean.optional(),
}) satisfies z.ZodType<VmStatus>;

export const snapshotsSchema = z.array(
  z.looseObject({
    name: z.string(),
    description: z.string().optional(),
    snaptime: pveNumber.optional(),
    vmstate: pveBoolean.optional(),
    parent: z.string().optional(),
    running: pveBoolean.optional(),
    digest: z.string().optional(),
  }) satisfies z.ZodType<Snapshot>,
);

const firewallRule = z.looseObject({
  pos: pveNumber,
  type: z.enum(['in', 'out', 'group', 'forward']),
  action: z.string(),
  enable: pveBoolean.optional(),
  proto: z.string().optional(),
  dport: z.string().optional(),
  sport: z.string().optional(),
  source: z.string().optional(),
  dest: z.string().optional(),
  macro: z.string().optional(),
  iface: z.string().optional(),
  log: z.string().optional(),
  comment: z.string().optional(),
  digest: z.string().optional(),
  ipversion: pveNumber.optional(),
}) satisfies z.ZodType<FirewallRule>;
export const firewallRuleSchema = firewallRule;
export const firewallRulesSchema = z.array(firewallRule);

export const firewallOptionsSchema = z.looseObject({
  enable: pveBoolean.optional(),
  policy_in: z.string().optional(),
  policy_out: z.string().optional(),
  dhcp: pveBoolean.optional(),
  macfilter: pveBoolean.optional(),
  ipfilter: pveBoolean.optional(),
  ndp: pveBoolean.optional(),
  radv: pveBoolean.optional(),
  log_level_in: z.string().optional(),
  log_level_out: z.string().optional(),
  digest: z.string().optional(),
}) satisfies z.ZodType<FirewallOptions>;

export const vncProxySchema = z.looseObject({
  user: z.string(),
  ticket: z.string(),
  password: z.string().optional(),
  cert: z.string(),
  port: pveNumber,
  upid: z.string(),
}) satisfies z.ZodType<VncProxy>;

export const taskStatusSchema = z.looseObject({
  upid: z.string(),
  node: z.string(),
  pid: pveNumber,
  pstart: pveNumber,
  starttime: pveNumber,
  type: z.string(),
  id: z.string(),
  user: z.string(),
  tokenid: z.string().optional(),
  status: z.enum(['running', 'stopped']),
  exitstatus: z.string().optional(),
}) satisfies z.ZodType<TaskStatus>;

export const taskLogSchema = z.array(
  z.looseObject({ n: pveNumber, t: z.string() }) satisfies z.ZodType<TaskLogLine>,
);
