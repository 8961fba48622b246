import { generateKeyPairSync, randomUUID } from 'node:crypto';

import { createUser } from '@nats-io/nkeys';

import { SEED_CLOUD_INIT_TEMPLATES } from '@noderings/domain';
import sshpk from 'sshpk';

import type { Caller, TestControlPlane } from '../control-plane.test-support.js';

/** One object of every kind a provider organisation owns, created through the API. */
export interface TenantFixture {
  readonly owner: Caller & { organizationId: string; userId: string };
  /** A user with the member role in this organisation. */
  readonly member: Caller & { organizationId: string; userId: string };
  /** An admin service-account token that may only be used from 10.0.0.0/8. */
  readonly ipLimited: Caller;
  readonly ids: {
    readonly region: string;
    readonly agent: string;
    readonly platform: string;
    readonly node: string;
    readonly plan: string;
    readonly addon: string;
    readonly secret: string;
    readonly environmentVariable: string;
    readonly sshKey: string;
    readonly cloudInitTemplate: string;
    readonly vmTemplate: string;
    readonly cloudInitUserData: string;
    readonly serviceAccount: string;
    readonly serviceAccountToken: string;
    readonly network: string;
    readonly prefix: string;
    /** A VM the owner ordered from the organisation's own plan. */
    readonly virtualMachine: string;
    readonly metricsCredential: string;
    /** Attached to the VM, with one rule naming the address group. */
    readonly firewallRuleset: string;
    readonly firewallRule: string;
    readonly addressGroup: string;
    /** A snapshot of the VM (never dispatched: the fixture's agent has no cluster). */
    readonly snapshot: string;
    /** A completed backup of the VM, as status sync records what the operator's schedule made. */
    readonly backup: string;
    readonly fleetEnvironment: string;
    readonly fleetInstallToken: string;
    /** A node agent enrolled in the environment (written as enrollment records it: no NATS here). */
    readonly fleetAgent: string;
    /** A Kubernetes cluster of the environment, with FIXTURE_FLEET_HOST linked to it. */
    readonly fleetCluster: string;
    /** An open invitation of the organisation to an address without an account. */
    readonly invitation: string;
  };
}

export const SECRET_VALUE = 'the-secret-value-7f3a9c';
/** The host (node) name linked to the fixture's fleet cluster, for routes with a `{hostname}`. */
const FIXTURE_FLEET_HOST = 'node-1';
/** A reserved address of the fixture's prefix, for routes with an `{ip}` in their path. */
const FIXTURE_RESERVED_IP = '198.51.100.5';

/** Which fixture object a path parameter names. */
export function fixtureIdFor(path: string, fixture: TenantFixture): string | undefined {
  const { ids } = fixture;
  const table: [RegExp, string][] = [
    [/^\/v1\/regions\/\{id\}/, ids.region],
    [/^\/v1\/agents\/\{id\}/, ids.agent],
    [/^\/v1\/platforms?\/\{id\}/, ids.platform],
    [/^\/v1\/nodes?\/\{id\}/, ids.node],
    [/^\/v1\/plans\/\{id\}/, ids.plan],
    [/^\/v1\/addons\/\{id\}/, ids.addon],
    [/^\/v1\/secrets\/\{id\}/, ids.secret],
    [/^\/v1\/environment-variables\/\{id\}/, ids.environmentVariable],
    [/^\/v1\/ssh-keys\/\{id\}/, ids.sshKey],
    [/^\/v1\/cloudinittemplate\/\{id\}/, ids.cloudInitTemplate],
    [/^\/v1\/vmtemplate\/\{id\}/, ids.vmTemplate],
    [/^\/v1\/cloudinituserdata\/\{id\}/, ids.cloudInitUserData],
    [/^\/v1\/service-accounts\/tokens\/\{tokenId\}/, ids.serviceAccountToken],
    [/^\/v1\/service-accounts\/\{id\}/, ids.serviceAccount],
    [/^\/v1\/organization\/members\/\{userId\}/, fixture.member.userId],
    [/^\/v1\/organization\/invitations\/\{id\}/, ids.invitation],
    [/^\/v1\/ipam\/networks\/\{id\}/, ids.network],
    [/^\/v1\/ipam\/prefixes\/\{id\}/, ids.prefix],
    [/^\/v1\/ipam\/nodes\/\{id\}/, ids.node],
    [/^\/v1\/(provider\/)?virtual-machines\/\{id\}/, ids.virtualMachine],
    [/^\/v1\/virtual-machines\/\{vmId\}/, ids.virtualMachine],
    [/^\/v1\/firewall\/rulesets\/\{(id|rulesetId)\}/, ids.firewallRuleset],
    [/^\/v1\/firewall\/rules\/\{id\}/, ids.firewallRule],
    [/^\/v1\/firewall\/address-groups\/\{id\}/, ids.addressGroup],
    [/^\/v1\/provider\/network\/smtp-outbound-policies\/\{vmId\}/, ids.virtualMachine],
    [/^\/v1\/metrics-credentials\/\{id\}/, ids.metricsCredential],
    [/^\/api\/v1\/fleet\/environments\/\{id\}/, ids.fleetEnvironment],
    [/^\/api\/v1\/fleet\/agents\/\{(id|agentId)\}/, ids.fleetAgent],
    [/^\/api\/v1\/fleet\/clusters\/\{(id|clusterId)\}/, ids.fleetCluster],
  ];
  return table.find(([pattern]) => pattern.test(path))?.[1];
}

/** What fills one path parameter: the fixture's object id, or an address of its prefix for `{ip}`. */
export function fixtureValueFor(path: string, name: string, fixture: TenantFixture): string | undefined {
  if (name === 'ip') return FIXTURE_RESERVED_IP;
  if (name === 'snapshotId') return fixture.ids.snapshot;
  if (name === 'backupId') return fixture.ids.backup;
  if (name === 'hostname') return FIXTURE_FLEET_HOST;
  if (name === 'tokenId' && path.startsWith('/api/v1/fleet/')) return fixture.ids.fleetInstallToken;
  return fixtureIdFor(path, fixture);
}

function newSshPublicKey(comment = 'laptop'): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const key = sshpk.parseKey(publicKey.export({ type: 'spki', format: 'pem' }), 'pem');
  key.comment = comment;
  return key.toString('ssh');
}

/** The id of the created object, whether the answer is the object or wraps it (`{agent: {...}}`). */
function idOf(body: Record<string, unknown>): string {
  if (typeof body.id === 'string') return body.id;
  for (const value of Object.values(body)) {
    if (typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'string')
      return value.id;
  }
  throw new Error(`no id in ${JSON.stringify(body)}`);
}

export async function createTenantFixture(t: TestControlPlane): Promise<TenantFixture> {
  const owner = await t.verifiedProvider();
  const create = async (
    path: string,
    body: unknown,
    as: Caller = owner,
  ): Promise<Record<string, unknown>> => {
    const response = await t.call('POST', path, { as, body });
    if (response.status !== 201 && response.status !== 200) {
      throw new Error(`POST ${path} answered ${String(response.status)}: ${JSON.stringify(response.body)}`);
    }
    return response.body;
  };
  const region = idOf(await create('/v1/regions', { cityCountryId: 'de-fra', datacenterId: 'own-facility' }));
  const agent = idOf(
    await create('/v1/agents', {
      name: 'frankfurt',
      agentPublicIp: '203.0.113.10',
      gatewayRegion: 'AGENT_GATEWAY_REGION_AMS01',
      hypervisorDriver: 'HYPERVISOR_DRIVER_PROXMOX',
    }),
  );
  const platform = idOf(
    await create('/v1/platform', {
      name: 'pve',
      endpointUrl: 'https://pve.example.test:8006',
      driver: 'PLATFORM_DRIVER_PROXMOX',
      agentId: agent,
    }),
  );
  const node = idOf(
    await create('/v1/node', {
      name: 'pve1',
      platformId: platform,
      regionId: region,
      vmStorageDestination: 'local-lvm',
      backupStorageDestination: 'local',
      backupStorageCompression: 'BACKUP_STORAGE_COMPRESSION_ZSTD',
      vmidSeed: 1000,
    }),
  );
  const plan = idOf(
    await create('/v1/plans', {
      name: 'Small',
      computeType: 'COMPUTE_TYPE_GENERAL_COMPUTE',
      vcpus: 1,
      ramGb: 1,
      diskGb: 20,
      planPrices: [{ billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount: '4.990000' }],
      regionId: region,
      nodeIds: [node],
    }),
  );
  const addon = idOf(
    await create('/v1/addons', {
      code: 'BACKUP-DAILY',
      name: 'Daily backups',
      addonType: 'ADDON_TYPE_BACKUP',
      pricing: { kind: 'percentage', currency: 'EUR', percentageValue: 20, zeroBaseFallbackAmount: '1' },
      compatiblePlanIds: [plan],
      backupPolicy: { schedule: '0 3 * * *', retention: 7 },
    }),
  );
  const secret = idOf(await create('/v1/secrets', { key: 'API_KEY', value: SECRET_VALUE }));
  const environmentVariable = idOf(
    await create('/v1/environment-variables', { key: 'REGION', value: 'eu-central' }),
  );
  const sshKey = idOf(await create('/v1/ssh-keys', { name: 'laptop', publicKey: newSshPublicKey() }));
  const cloudInitTemplate = idOf(
    await create('/v1/cloudinittemplate', { name: 'ubuntu', copyFromId: SEED_CLOUD_INIT_TEMPLATES[0]?.id }),
  );
  const vmTemplate = idOf(
    await create('/v1/vmtemplate', {
      name: 'ubuntu 24.04',
      distro: 'DISTRO_UBUNTU_24_04',
      templateId: 9000,
      nodeId: node,
      cloudInitTemplateId: cloudInitTemplate,
    }),
  );
  const cloudInitUserData = idOf(
    await create('/v1/cloudinituserdata', { name: 'web', userData: '#cloud-config\npackages: [nginx]\n' }),
  );
  const network = idOf(await create('/v1/ipam/networks', { name: 'public', dnsServers: ['198.51.100.53'] }));
  await create(`/v1/ipam/networks/${network}/assign-node`, { nodeIds: [node] });
  const prefix = idOf(
    await create('/v1/ipam/prefixes', {
      cidr: '198.51.100.0/24',
      gateway: '198.51.100.1',
      networkId: network,
      reservedIps: [FIXTURE_RESERVED_IP],
      reservedPrefixes: ['198.51.100.240/28'],
    }),
  );
  await makeSellable(t, agent, platform, node);
  // Published once it can be sold, and its preflight read (evaluated then): orders go to listed plans only.
  const published = await t.call('PATCH', `/v1/plans/${plan}`, { as: owner, body: { isPublic: true } });
  if (published.status !== 200) throw new Error(`publishing the plan answered ${String(published.status)}`);
  await t.call('GET', '/v1/provider/preflight-checks?pageSize=1', { as: owner });
  const virtualMachine = idOf(
    await create('/v1/virtual-machines', {
      hostname: 'fixture',
      planId: plan,
      regionId: region,
      distro: 'DISTRO_UBUNTU_24_04',
      sshKeyIds: [sshKey],
      idempotencyKey: 'fixture-vm',
    }),
  );
  const snapshot = idOf(
    await create(`/v1/virtual-machines/${virtualMachine}/snapshots`, { description: 'fixture' }),
  );
  const backup = await insertBackup(t, {
    vmId: virtualMachine,
    organizationId: owner.organizationId,
    agent,
    addon,
  });
  const addressGroup = idOf(
    await create('/v1/firewall/address-groups', { group: { name: 'office', prefixes: ['192.0.2.0/24'] } }),
  );
  const firewallRuleset = idOf(await create('/v1/firewall/rulesets', { ruleset: { name: 'web' } }));
  const firewallRule = idOf(
    await create(`/v1/firewall/rulesets/${firewallRuleset}/rules`, {
      rule: {
        direction: 'FIREWALL_DIRECTION_INGRESS',
        action: 'FIREWALL_ACTION_ACCEPT',
        protocol: 'FIREWALL_PROTOCOL_TCP',
        destinationPorts: '22',
        source: { addressGroupIds: [addressGroup] },
      },
    }),
  );
  await create(`/v1/virtual-machines/${virtualMachine}:attach-firewall`, { rulesetId: firewallRuleset });
  const policy = await t.call('PUT', '/v1/node-placement-policy', {
    as: owner,
    body: {
      defaultStrategy: 'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN',
      regionOverrides: [{ regionId: region, strategy: 'NODE_PLACEMENT_STRATEGY_LEAST_ASSIGNED_VMS' }],
    },
  });
  if (policy.status !== 200)
    throw new Error(`PUT /v1/node-placement-policy answered ${String(policy.status)}`);
  const serviceAccount = idOf(await create('/v1/service-accounts', { name: 'ci' }));
  const minted = await create(`/v1/service-accounts/${serviceAccount}/tokens`, { name: 'pipeline' });
  const limited = idOf(
    await create('/v1/service-accounts', {
      name: 'office-only',
      allowedIps: ['10.0.0.0/8'],
      role: 'MEMBER_ROLE_ADMIN',
    }),
  );
  const limitedToken = await create(`/v1/service-accounts/${limited}/tokens`, { name: 'office' });

  const metricsCredential = await create('/v1/metrics-credentials', { agentId: agent, name: 'alloy' });

  const fleet = await createFleetObjects(t, owner, create);

  const memberUser = await t.register('ORGANIZATION_TYPE_CLIENT');
  await t.addMember(owner, memberUser, 'member');
  const invitation = idOf(
    await create('/v1/organization/invitations', {
      email: `invitee-${randomUUID()}@example.test`,
      role: 'MEMBER_ROLE_ADMIN',
    }),
  );
  return {
    owner,
    member: { token: memberUser.token, organizationId: owner.organizationId, userId: memberUser.userId },
    ipLimited: { token: String(limitedToken.token) },
    ids: {
      region,
      agent,
      platform,
      node,
      plan,
      addon,
      secret,
      environmentVariable,
      sshKey,
      cloudInitTemplate,
      vmTemplate,
      cloudInitUserData,
      serviceAccount,
      serviceAccountToken: String(minted.tokenId),
      network,
      prefix,
      virtualMachine,
      metricsCredential: (metricsCredential.credential as { id: string }).id,
      firewallRuleset,
      firewallRule,
      addressGroup,
      snapshot,
      backup,
      invitation,
      ...fleet,
    },
  };
}

async function createFleetObjects(
  t: TestControlPlane,
  owner: Caller & { organizationId: string },
  create: (path: string, body: unknown) => Promise<Record<string, unknown>>,
): Promise<
  Pick<TenantFixture['ids'], 'fleetEnvironment' | 'fleetInstallToken' | 'fleetAgent' | 'fleetCluster'>
> {
  const fleetEnvironment = idOf(await create('/api/v1/fleet/environments', { name: 'production' }));
  const fleetInstallToken = idOf(
    await create(`/api/v1/fleet/environments/${fleetEnvironment}/install-tokens`, {
      description: 'daemonset',
    }),
  );
  const fleetCluster = idOf(
    await create(`/api/v1/fleet/environments/${fleetEnvironment}/clusters`, { name: 'prod' }),
  );
  const linked = await t.call('PUT', `/api/v1/fleet/clusters/${fleetCluster}/hosts/${FIXTURE_FLEET_HOST}`, {
    as: owner,
  });
  if (linked.status !== 200) throw new Error(`linking a fleet host answered ${String(linked.status)}`);
  const now = new Date();
  const agent = await t.cp.db
    .insertInto('fleet_agents')
    .values({
      organization_id: owner.organizationId,
      environment_id: fleetEnvironment,
      agent_type: 'k8s-node-monitor',
      name: FIXTURE_FLEET_HOST,
      public_key: createUser().getPublicKey(),
      key_bound_at: now,
      install_token_id: fleetInstallToken,
      version: '0.8.0',
      hostname: FIXTURE_FLEET_HOST,
      heartbeat_interval_seconds: 30,
      enrolled_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { fleetEnvironment, fleetInstallToken, fleetAgent: agent.id, fleetCluster };
}

/** A completed scheduled backup of the VM, written as status sync records one the operator made. */
async function insertBackup(
  t: TestControlPlane,
  of: { vmId: string; organizationId: string; agent: string; addon: string },
): Promise<string> {
  const row = await t.cp.db
    .insertInto('vm_backups')
    .values({
      vm_id: of.vmId,
      client_organization_id: of.organizationId,
      agent_id: of.agent,
      object_name: `nr-${of.vmId}-20261130-0300`,
      object_uid: randomUUID(),
      addon_id: of.addon,
      dispatched_generation: 1,
      observed_phase: 'Completed',
      observed_volid: 'local:backup/vzdump-qemu-1000-2026_11_30-03_00_00.vma.zst',
      observed_size_bytes: 1024,
      updated_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** What peering and the metrics sync would report, written straight into the database: the node can sell. */
async function makeSellable(
  t: TestControlPlane,
  agent: string,
  platform: string,
  node: string,
): Promise<void> {
  const gib = 1024 ** 3;
  await t.cp.db
    .updateTable('agents')
    .set({
      provisioned: true,
      inbound_peering_state: 'INBOUND_PEERING_STATE_READY',
      service_status: 'SERVICE_STATUS_ONLINE',
    })
    .where('id', '=', agent)
    .execute();
  await t.cp.db
    .updateTable('platforms')
    .set({ service_status: 'SERVICE_STATUS_ONLINE' })
    .where('id', '=', platform)
    .execute();
  await t.cp.db
    .updateTable('nodes')
    .set({
      service_status: 'SERVICE_STATUS_ONLINE',
      inventory: JSON.stringify({
        cpuCores: 16,
        memoryBytes: 64 * gib,
        storagePools: [{ storageId: 'local-lvm', totalBytes: 1000 * gib, allocatedBytes: 0 }],
      }),
    })
    .where('id', '=', node)
    .execute();
  // Its operator has read Proxmox: the node and the template the fixture registers are there.
  await t.cp.db
    .insertInto('proxmox_inventories')
    .values({
      agent_id: agent,
      nodes: JSON.stringify([{ name: 'pve1', online: true, templateVmids: [9000] }]),
      observed_at: new Date(),
      read_at: new Date(),
    })
    .execute();
}
