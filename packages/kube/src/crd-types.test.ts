import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from './crd-manifests.js';
import { CRD_FILES, crdSchema, loadCrds } from './crd-manifests.js';
import { schemaDefaults, schemaPaths, validate, valuePaths } from './crd-schema-walk.test-support.js';
import type {
  FirewallRuleSet,
  ProxmoxInventory,
  ProxmoxVM,
  VMBackup,
  VMSnapshot,
  VNCRequest,
} from './crd-types.js';
import { CRD_API_VERSION, CRD_GROUP, CRD_VERSION } from './crd-types.js';

/** Every optional field made required, recursively: TypeScript then proves an example names them all. */
type DeepRequired<T> = T extends readonly (infer U)[]
  ? DeepRequired<U>[]
  : T extends object
    ? { [K in keyof T]-?: DeepRequired<T[K]> }
    : T;

type Example<T extends { spec: unknown; status?: unknown }> = DeepRequired<Pick<T, 'spec' | 'status'>> & {
  apiVersion: typeof CRD_API_VERSION;
  kind: string;
  metadata: { name: string; namespace: string };
};

const uuid = '3f0c8a52-8b1e-4c1a-9d7e-2b6f5a4c3d21';
const metadata = { name: `nr-${uuid}`, namespace: '9b2d7c1e-0a4f-4e8b-b6c3-5d7e8f9a0b1c-operator' };
const time = '2026-11-30T10:00:00Z';
const condition = {
  type: 'Ready',
  status: 'True' as const,
  reason: 'Provisioned',
  message: 'VM is running',
  observedGeneration: 3,
  lastTransitionTime: time,
};

const proxmoxVM: Example<ProxmoxVM> = {
  apiVersion: CRD_API_VERSION,
  kind: 'ProxmoxVM',
  metadata,
  spec: {
    vmId: uuid,
    instance: 'proxmox-1',
    node: 'pve1',
    vmid: 1042,
    templateVmid: 9000,
    cpu: { cores: 2, sockets: 1, type: 'host', units: 1024, limit: 0 },
    memoryMiB: 2048,
    disk: { storage: 'local-lvm', sizeGiB: 40 },
    network: {
      bridge: 'vmbr0',
      device: 'net0',
      model: 'virtio',
      vlan: 0,
      mac: 'BC:24:11:00:00:2A',
      rateLimitMBps: 0,
      ipv4: { address: '203.0.113.10/24', gateway: '203.0.113.1' },
      ipv6: { address: '2001:db8::10/64', gateway: '2001:db8::1' },
      nameservers: ['203.0.113.53', '2001:db8::53'],
    },
    cloudInitSecretRef: `nr-${uuid}-cloudinit`,
    powerState: 'Running',
    rebootRequestedAt: time,
    smtpBlocked: true,
    firewallRuleSetRef: `nr-${uuid}`,
    backupPolicy: { schedule: '0 3 * * *', retention: 7, storage: 'local', compression: 'zstd' },
    tags: ['customer-tag'],
  },
  status: {
    phase: 'Running',
    vmid: 1042,
    node: 'pve1',
    mac: 'BC:24:11:00:00:2A',
    powerState: 'Running',
    lastRebootAt: time,
    taskRef: 'UPID:pve1:0000A1B2:0012C3D4:6560A1B2:qmstart:1042:root@pam:',
    message: '',
    observedGeneration: 3,
    conditions: [condition],
  },
};

const vncRequest: Example<VNCRequest> = {
  apiVersion: CRD_API_VERSION,
  kind: 'VNCRequest',
  metadata,
  spec: { vmRef: `nr-${uuid}` },
  status: {
    phase: 'Ready',
    node: 'pve1',
    vmid: 1042,
    port: 5900,
    ticket: 'PVEVNC:6560A1B2::abc',
    password: 'one-time',
    expiresAt: time,
    message: '',
    observedGeneration: 1,
    conditions: [condition],
  },
};

const firewallRuleSet: Example<FirewallRuleSet> = {
  apiVersion: CRD_API_VERSION,
  kind: 'FirewallRuleSet',
  metadata,
  spec: {
    rules: [
      {
        direction: 'in',
        action: 'ACCEPT',
        protocol: 'tcp',
        sourcePorts: '1024:65535',
        destinationPorts: '22,80,443',
        sources: ['198.51.100.0/24', '2001:db8:1::/48'],
        destinations: ['203.0.113.10/32'],
        comment: 'ssh and web',
      },
    ],
  },
  status: { phase: 'Applied', ruleCount: 1, message: '', observedGeneration: 2, conditions: [condition] },
};

const vmBackup: Example<VMBackup> = {
  apiVersion: CRD_API_VERSION,
  kind: 'VMBackup',
  metadata,
  spec: {
    vmRef: `nr-${uuid}`,
    storage: 'local',
    compression: 'zstd',
    mode: 'snapshot',
    restore: { requestedAt: time, start: true },
  },
  status: {
    phase: 'Completed',
    volid: 'local:backup/vzdump-qemu-1042-2026_11_30-10_00_00.vma.zst',
    sizeBytes: 1_234_567_890,
    startedAt: time,
    finishedAt: time,
    message: '',
    taskRef: 'UPID:pve1:0000A1B2:0012C3D4:6560A1B2:vzdump:1042:root@pam:',
    restore: { phase: 'Completed', requestedAt: time, message: '' },
    observedGeneration: 1,
    conditions: [condition],
  },
};

const vmSnapshot: Example<VMSnapshot> = {
  apiVersion: CRD_API_VERSION,
  kind: 'VMSnapshot',
  metadata,
  spec: {
    vmRef: `nr-${uuid}`,
    snapshotName: 'before-upgrade',
    description: 'before apt upgrade',
    rollbackRequestedAt: time,
  },
  status: {
    phase: 'Ready',
    message: '',
    lastRollbackAt: time,
    taskRef: 'UPID:pve1:0000A1B2:0012C3D4:6560A1B2:qmsnapshot:1042:root@pam:',
    observedGeneration: 1,
    conditions: [condition],
  },
};

const proxmoxInventory: Example<ProxmoxInventory> = {
  apiVersion: CRD_API_VERSION,
  kind: 'ProxmoxInventory',
  metadata: { name: 'default', namespace: metadata.namespace },
  spec: { instance: 'default' },
  status: {
    phase: 'Ready',
    observedAt: time,
    nodes: [{ name: 'pve1', online: true, templateVmids: [9000, 9001] }],
    message: '',
    observedGeneration: 1,
    conditions: [condition],
  },
};

const examples = {
  ProxmoxVM: proxmoxVM,
  VNCRequest: vncRequest,
  FirewallRuleSet: firewallRuleSet,
  VMBackup: vmBackup,
  VMSnapshot: vmSnapshot,
  ProxmoxInventory: proxmoxInventory,
};
const crds = loadCrds();

/** `metadata` is opaque to a CRD schema (the API server validates it), so its insides are not compared. */
function examplePaths(example: object): string[] {
  return valuePaths(example).filter((p) => !p.startsWith('metadata.'));
}

describe.each(Object.entries(examples))('%s', (kind, example) => {
  const schema = crdSchema(crds, kind);

  it('declares exactly the fields the TS type has', () => {
    expect(new Set(schemaPaths(schema))).toEqual(new Set(examplePaths(example)));
  });

  it('accepts the fully populated example', () => {
    expect(validate(schema, example)).toEqual([]);
  });

  it('has defaults that its own schema accepts', () => {
    for (const { path, schema: node } of schemaDefaults(schema)) {
      expect(validate(node, node.default, path)).toEqual([]);
    }
  });

  it('lets no secret into the spec (only a reference to the cloud-init Secret)', () => {
    const specFields = schemaPaths(schema).filter((p) => p.startsWith('spec.'));
    expect(specFields.filter((p) => /password|sshkey|token|privatekey|secret(?!ref)/i.test(p))).toEqual([]);
  });
});

describe('the CRD manifests', () => {
  it('define six namespaced kinds of vm.noderings.com/v1alpha1 with status and printer columns', () => {
    expect(crds.map((c) => c.spec.names.kind)).toEqual([
      'ProxmoxVM',
      'VNCRequest',
      'FirewallRuleSet',
      'VMBackup',
      'VMSnapshot',
      'ProxmoxInventory',
    ]);
    expect(CRD_FILES).toHaveLength(6);
    for (const crd of crds) {
      expect(crd.apiVersion).toBe('apiextensions.k8s.io/v1');
      expect(crd.metadata?.name).toBe(`${crd.spec.names.plural}.${CRD_GROUP}`);
      expect(crd.spec.scope).toBe('Namespaced');
      expect(crd.spec.names.shortNames?.length).toBeGreaterThan(0);
      const [version] = crd.spec.versions;
      expect(version?.name).toBe(CRD_VERSION);
      expect(version?.subresources?.status).toEqual({});
      const columns = version?.additionalPrinterColumns?.map((c) => c.jsonPath) ?? [];
      expect(columns).toContain('.status.phase');
      expect(columns).toContain('.metadata.creationTimestamp');
    }
    expect(crds[0]?.spec.names.shortNames).toContain('pvm');
  });
});

describe('ProxmoxVM validation', () => {
  const schema = crdSchema(crds, 'ProxmoxVM');
  const withSpec = (patch: Record<string, unknown>): unknown => ({
    ...proxmoxVM,
    spec: { ...proxmoxVM.spec, ...patch },
  });
  const withNetwork = (patch: Record<string, unknown>): unknown =>
    withSpec({ network: { ...proxmoxVM.spec.network, ...patch } });

  it.each([
    ['a lower-case MAC', withNetwork({ mac: 'bc:24:11:00:00:2a' })],
    ['VLAN 4095', withNetwork({ vlan: 4095 })],
    ['an unknown NIC model', withNetwork({ model: 'ne2k_pci' })],
    [
      'an IPv4 address without prefix length',
      withNetwork({ ipv4: { address: '203.0.113.10', gateway: '203.0.113.1' } }),
    ],
    [
      'an IPv4 octet above 255',
      withNetwork({ ipv4: { address: '203.0.113.256/24', gateway: '203.0.113.1' } }),
    ],
    ['VMID 99', withSpec({ vmid: 99 })],
    ['VMID 1000000000', withSpec({ vmid: 1_000_000_000 })],
    ['zero cores', withSpec({ cpu: { cores: 0 } })],
    ['a zero-sized disk', withSpec({ disk: { storage: 'local-lvm', sizeGiB: 0 } })],
    ['an unknown power state', withSpec({ powerState: 'Paused' })],
    ['a vmId that is not a uuid', withSpec({ vmId: 'vm-42' })],
    ['an SSH key in the spec', withSpec({ sshKeys: ['ssh-ed25519 AAAA'] })],
    [
      'an unknown backup compression',
      withSpec({
        backupPolicy: { schedule: '0 3 * * *', retention: 7, storage: 'local', compression: 'xz' },
      }),
    ],
  ])('rejects %s', (_what, vm) => {
    expect(validate(schema, vm)).not.toEqual([]);
  });

  it('accepts the smallest order, leaving defaulted fields out', () => {
    const { spec } = proxmoxVM;
    const minimal = {
      spec: {
        vmId: spec.vmId,
        node: spec.node,
        vmid: spec.vmid,
        templateVmid: spec.templateVmid,
        cpu: { cores: 1 },
        memoryMiB: 512,
        disk: spec.disk,
        network: { mac: spec.network.mac, ipv4: spec.network.ipv4 },
        cloudInitSecretRef: spec.cloudInitSecretRef,
      },
    };
    expect(validate(schema, minimal)).toEqual([]);
  });

  it('defaults what the product pages promise', () => {
    const defaultAt = (path: string): unknown =>
      path.split('.').reduce<JSONSchemaProps | undefined>((node, name) => node?.properties?.[name], schema)
        ?.default;
    expect(
      Object.fromEntries(
        [
          'spec.instance',
          'spec.network.bridge',
          'spec.network.device',
          'spec.network.model',
          'spec.network.vlan',
          'spec.network.rateLimitMBps',
          'spec.cpu.type',
          'spec.cpu.units',
          'spec.cpu.limit',
          'spec.powerState',
          'spec.smtpBlocked',
        ].map((path) => [path, defaultAt(path)]),
      ),
    ).toEqual({
      'spec.instance': 'default',
      'spec.network.bridge': 'vmbr0',
      'spec.network.device': 'net0',
      'spec.network.model': 'virtio',
      'spec.network.vlan': 0,
      'spec.network.rateLimitMBps': 0,
      'spec.cpu.type': 'host',
      'spec.cpu.units': 1024,
      'spec.cpu.limit': 0,
      'spec.powerState': 'Running',
      'spec.smtpBlocked': true,
    });
    expect(crdSchema(crds, 'VMBackup').properties?.spec?.properties?.mode?.default).toBe('snapshot');
  });
});
