import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { createRegion, insertPlatform, requiredNodeFields } from './node.test-support.js';

interface NodeView {
  id: string;
  name: string;
  platformId: string;
  regionId: string;
  organizationId: string;
  serviceStatus: string;
  maintenanceMode: boolean;
  vmidSeed: number;
  cpuOverallocatePercent: number;
  computeType: string;
  networkVlanId: number;
  macAddressPrefix: string;
  createTime: string;
  updateTime: string;
  [field: string]: unknown;
}

interface NodeList {
  nodes: { node: NodeView; expandedRegion?: { id: string; cityCountry: { cityName: string } } }[];
  totalCount: number;
}

interface ErrorBody {
  code: string;
  message: string;
  details: { fieldViolations: { field: string; description: string }[] }[];
}

describe.each(DATABASE_KINDS)('nodes on the %s database', (kind) => {
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
  });
  afterAll(() => t.close());

  /** A provider with one platform and one region, ready to add nodes. */
  async function provider(): Promise<
    Caller & { organizationId: string; platformId: string; regionId: string }
  > {
    const caller = await t.register();
    return {
      ...caller,
      platformId: await insertPlatform(t, caller.organizationId),
      regionId: await createRegion(t, caller),
    };
  }

  async function createNode(as: Caller, body: Record<string, unknown>): Promise<NodeView> {
    const response = await t.call<{ node: NodeView }>('POST', '/v1/node', { as, body });
    if (response.status !== 201) throw new Error(`node create failed: ${JSON.stringify(response.body)}`);
    return response.body.node;
  }

  async function nodeCount(as: Caller): Promise<number> {
    return (await t.call<NodeList>('GET', '/v1/nodes', { as })).body.totalCount;
  }

  /** One provider for all the refusals: each must leave its node count as it was. */
  let validationProvider: Awaited<ReturnType<typeof provider>> | undefined;

  function violatedFields(body: unknown): string[] {
    return (body as ErrorBody).details.flatMap((d) => d.fieldViolations.map((v) => v.field));
  }

  it('creates a node with every default filled in, offline and with an empty inventory', async () => {
    const p = await provider();
    const created = await t.call<{ node: NodeView }>('POST', '/v1/node', {
      as: p,
      body: requiredNodeFields(p.platformId, p.regionId, 'pve1'),
    });
    expect(created.status).toBe(201);
    const node = created.body.node;
    expect(node).toEqual({
      id: expect.any(String) as unknown,
      name: 'pve1',
      platformId: p.platformId,
      regionId: p.regionId,
      organizationId: p.organizationId,
      serviceStatus: 'SERVICE_STATUS_OFFLINE',
      maintenanceMode: false,
      vmidSeed: 1000,
      vmStorageDestination: 'local-lvm',
      backupStorageDestination: 'local',
      backupStorageCompression: 'BACKUP_STORAGE_COMPRESSION_ZSTD',
      cpuOverallocatePercent: 100,
      memoryOverallocatePercent: 100,
      storageOverallocatePercent: 100,
      computeType: 'NODE_COMPUTE_TYPE_SHARED',
      networkBridge: 'vmbr0',
      networkName: 'net0',
      networkModel: 'virtio',
      networkVlanId: 0,
      macAddressPrefix: 'BC:24:11',
      proxmoxCpuType: 'host',
      inventory: {
        cpuCores: 0,
        cpuCoresAllocated: 0,
        memoryBytes: 0,
        memoryAllocatedBytes: 0,
        storagePools: [],
        nonNrCpuCores: 0,
        nonNrMemoryBytes: 0,
        nonNrDiskBytes: 0,
        syncedAt: null,
      },
      createTime: expect.any(String) as unknown,
      updateTime: expect.any(String) as unknown,
    });
    const read = await t.call<{ node: NodeView }>('GET', `/v1/node/${node.id}`, { as: p });
    expect(read.status).toBe(200);
    expect(read.body.node).toEqual(node);
  });

  it('creates a node with every field given, the MAC prefix upper-cased', async () => {
    const p = await provider();
    const body = {
      ...requiredNodeFields(p.platformId, p.regionId, 'PVE-fra-02'),
      vmStorageDestination: 'ceph_pool.1',
      backupStorageDestination: 'nfs-backup',
      backupStorageCompression: 'BACKUP_STORAGE_COMPRESSION_LZO',
      vmidSeed: 50000,
      maintenanceMode: true,
      cpuOverallocatePercent: 100,
      memoryOverallocatePercent: 120,
      storageOverallocatePercent: 300,
      computeType: 'NODE_COMPUTE_TYPE_DEDICATED',
      networkBridge: 'vmbr1',
      networkName: 'net1',
      networkModel: 'e1000',
      networkVlanId: 4094,
      macAddressPrefix: '02:ab:cd',
      proxmoxCpuType: 'x86-64-v2-AES',
    };
    const node = await createNode(p, body);
    const { platformId, regionId, ...settings } = body;
    expect(node).toMatchObject({ ...settings, platformId, regionId, macAddressPrefix: '02:AB:CD' });
  });

  it.each([
    ['a VLAN tag of 4095', { networkVlanId: 4095 }, 'networkVlanId'],
    ['a negative VLAN tag', { networkVlanId: -1 }, 'networkVlanId'],
    ['a malformed MAC prefix', { macAddressPrefix: 'BC:24' }, 'macAddressPrefix'],
    ['a multicast MAC prefix', { macAddressPrefix: '01:00:5e' }, 'macAddressPrefix'],
    ['the NIC model ne2k', { networkModel: 'ne2k' }, 'networkModel'],
    ['a VMID seed of 99', { vmidSeed: 99 }, 'vmidSeed'],
    ['a VMID seed beyond Proxmox range', { vmidSeed: 1_000_000_000 }, 'vmidSeed'],
    ['a storage id with a space', { vmStorageDestination: 'local lvm' }, 'vmStorageDestination'],
    ['a storage id with a colon', { backupStorageDestination: 'local:backup' }, 'backupStorageDestination'],
    [
      'an unknown compression',
      { backupStorageCompression: 'BACKUP_STORAGE_COMPRESSION_XZ' },
      'backupStorageCompression',
    ],
    ['a missing compression', { backupStorageCompression: undefined }, 'backupStorageCompression'],
    ['a missing VMID seed', { vmidSeed: undefined }, 'vmidSeed'],
    ['a fully qualified node name', { name: 'pve1.example.com' }, 'name'],
    ['an empty node name', { name: '' }, 'name'],
    ['a net device beyond net31', { networkName: 'net32' }, 'networkName'],
    ['a bridge name longer than Linux allows', { networkBridge: 'vmbr-customers-1' }, 'networkBridge'],
    ['a CPU type with flags', { proxmoxCpuType: 'host,flags=+aes' }, 'proxmoxCpuType'],
    ['an overallocation of 1001 %', { memoryOverallocatePercent: 1001 }, 'memoryOverallocatePercent'],
    ['a fractional overallocation', { storageOverallocatePercent: 150.5 }, 'storageOverallocatePercent'],
    ['an unknown compute type', { computeType: 'NODE_COMPUTE_TYPE_BURST' }, 'computeType'],
    [
      'CPU overallocation on a dedicated node',
      { computeType: 'NODE_COMPUTE_TYPE_DEDICATED', cpuOverallocatePercent: 200 },
      'cpuOverallocatePercent',
    ],
  ])('refuses %s with 400 naming the field, and writes nothing', async (_case, change, field) => {
    const p = (validationProvider ??= await provider());
    const before = await nodeCount(p);
    const response = await t.call('POST', '/v1/node', {
      as: p,
      body: { ...requiredNodeFields(p.platformId, p.regionId), ...change },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('INVALID_ARGUMENT');
    expect(violatedFields(response.body)).toContain(field);
    expect(await nodeCount(p)).toBe(before);
  });

  it('refuses a field the API does not know', async () => {
    const p = await provider();
    const response = await t.call('POST', '/v1/node', {
      as: p,
      body: { ...requiredNodeFields(p.platformId, p.regionId), topologyPaste: 'x' },
    });
    expect(response.status).toBe(400);
    expect(await nodeCount(p)).toBe(0);
  });

  it("answers 404 for another organization's platform or region, as for one that does not exist", async () => {
    const p = await provider();
    const other = await provider();
    const foreignPlatform = await t.call<ErrorBody>('POST', '/v1/node', {
      as: p,
      body: requiredNodeFields(other.platformId, p.regionId),
    });
    expect(foreignPlatform.status).toBe(404);
    expect(foreignPlatform.body.code).toBe('NOT_FOUND');
    expect(foreignPlatform.body.message).toBe(`Platform ${other.platformId} was not found.`);
    const missingPlatformId = '00000000-0000-4000-8000-000000000000';
    const missingPlatform = await t.call<ErrorBody>('POST', '/v1/node', {
      as: p,
      body: requiredNodeFields(missingPlatformId, p.regionId),
    });
    expect(missingPlatform.body.message).toBe(`Platform ${missingPlatformId} was not found.`);

    const foreignRegion = await t.call<ErrorBody>('POST', '/v1/node', {
      as: p,
      body: requiredNodeFields(p.platformId, other.regionId),
    });
    expect(foreignRegion.status).toBe(404);
    expect(foreignRegion.body.message).toBe(`Region ${other.regionId} was not found.`);
    expect(await nodeCount(p)).toBe(0);
    expect(await nodeCount(other)).toBe(0);
  });

  it('keeps node names unique per platform, not across platforms', async () => {
    const p = await provider();
    await createNode(p, requiredNodeFields(p.platformId, p.regionId, 'pve1'));
    const duplicate = await t.call<ErrorBody>('POST', '/v1/node', {
      as: p,
      body: requiredNodeFields(p.platformId, p.regionId, 'pve1'),
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('ALREADY_EXISTS');
    expect(duplicate.body.message).toContain('pve1');

    const secondPlatform = await insertPlatform(t, p.organizationId);
    await createNode(p, requiredNodeFields(secondPlatform, p.regionId, 'pve1'));
    const pve2 = await createNode(p, requiredNodeFields(p.platformId, p.regionId, 'pve2'));
    const rename = await t.call<ErrorBody>('PATCH', `/v1/node/${pve2.id}`, { as: p, body: { name: 'pve1' } });
    expect(rename.status).toBe(409);
    expect(rename.body.code).toBe('ALREADY_EXISTS');
    expect(await nodeCount(p)).toBe(2 + 1);
  });

  it('changes only the fields a PATCH gives', async () => {
    const p = await provider();
    const node = await createNode(p, {
      ...requiredNodeFields(p.platformId, p.regionId),
      networkVlanId: 100,
      cpuOverallocatePercent: 200,
    });
    const patched = await t.call<{ node: NodeView }>('PATCH', `/v1/node/${node.id}`, {
      as: p,
      body: { maintenanceMode: true, macAddressPrefix: 'bc:24:12', vmidSeed: 2000 },
    });
    expect(patched.status).toBe(200);
    const { updateTime: _before, ...unchanged } = node;
    expect(patched.body.node).toMatchObject({
      ...unchanged,
      maintenanceMode: true,
      macAddressPrefix: 'BC:24:12',
      vmidSeed: 2000,
    });
    expect(Date.parse(patched.body.node.updateTime)).toBeGreaterThanOrEqual(Date.parse(node.updateTime));
    expect((await t.call<{ node: NodeView }>('GET', `/v1/node/${node.id}`, { as: p })).body.node).toEqual(
      patched.body.node,
    );

    const empty = await t.call<{ node: NodeView }>('PATCH', `/v1/node/${node.id}`, { as: p, body: {} });
    expect(empty.status).toBe(200);
    expect(empty.body.node).toEqual(patched.body.node);

    const otherRegion = await createRegion(t, p, 'nl-ams');
    const moved = await t.call<{ node: NodeView }>('PATCH', `/v1/node/${node.id}`, {
      as: p,
      body: { regionId: otherRegion },
    });
    expect(moved.body.node.regionId).toBe(otherRegion);
  });

  it('checks a PATCH against the node as it would be afterwards, and changes nothing when refused', async () => {
    const p = await provider();
    const other = await provider();
    const node = await createNode(p, {
      ...requiredNodeFields(p.platformId, p.regionId),
      cpuOverallocatePercent: 200,
    });
    const refusals: [Record<string, unknown>, number, string][] = [
      [{ computeType: 'NODE_COMPUTE_TYPE_DEDICATED' }, 400, 'cpuOverallocatePercent'],
      [{ networkVlanId: 4095 }, 400, 'networkVlanId'],
      [{ networkModel: 'ne2k', vmidSeed: 2000 }, 400, 'networkModel'],
      [{ platformId: other.platformId }, 400, 'platformId'],
      [{ name: null }, 400, 'name'],
      [{ regionId: other.regionId }, 404, ''],
    ];
    for (const [body, status, field] of refusals) {
      const response = await t.call('PATCH', `/v1/node/${node.id}`, { as: p, body });
      expect(response.status, JSON.stringify(body)).toBe(status);
      if (field !== '') expect(violatedFields(response.body)).toContain(field);
    }
    expect((await t.call<{ node: NodeView }>('GET', `/v1/node/${node.id}`, { as: p })).body.node).toEqual(
      node,
    );

    const dedicated = await t.call<{ node: NodeView }>('PATCH', `/v1/node/${node.id}`, {
      as: p,
      body: { computeType: 'NODE_COMPUTE_TYPE_DEDICATED', cpuOverallocatePercent: 100 },
    });
    expect(dedicated.status).toBe(200);
    expect(dedicated.body.node).toMatchObject({
      computeType: 'NODE_COMPUTE_TYPE_DEDICATED',
      cpuOverallocatePercent: 100,
    });
  });

  it('never lets racing edits make a dedicated node with oversold CPU', async () => {
    const p = await provider();
    for (let round = 0; round < 5; round++) {
      const node = await createNode(p, requiredNodeFields(p.platformId, p.regionId, `race${round}`));
      const responses = await Promise.all([
        t.call('PATCH', `/v1/node/${node.id}`, {
          as: p,
          body: { computeType: 'NODE_COMPUTE_TYPE_DEDICATED' },
        }),
        t.call('PATCH', `/v1/node/${node.id}`, { as: p, body: { cpuOverallocatePercent: 200 } }),
      ]);
      expect(responses.map((r) => r.status).sort()).toEqual([200, 400]);
      const final = (await t.call<{ node: NodeView }>('GET', `/v1/node/${node.id}`, { as: p })).body.node;
      expect(
        final.computeType === 'NODE_COMPUTE_TYPE_DEDICATED' && final.cpuOverallocatePercent !== 100,
      ).toBe(false);
    }
  });

  it('lists with filters, search, region expansion and 0-based pages', async () => {
    const p = await provider();
    const secondPlatform = await insertPlatform(t, p.organizationId);
    const amsterdam = await createRegion(t, p, 'nl-ams');
    const a = await createNode(p, requiredNodeFields(p.platformId, p.regionId, 'pve-fra-1'));
    const b = await createNode(p, requiredNodeFields(p.platformId, amsterdam, 'pve-ams-1'));
    const c = await createNode(p, requiredNodeFields(secondPlatform, p.regionId, 'PVE-FRA-2'));
    await t.cp.db
      .updateTable('nodes')
      .set({ service_status: 'SERVICE_STATUS_ONLINE' })
      .where('id', '=', b.id)
      .execute();
    const ids = async (query: string): Promise<string[]> => {
      const response = await t.call<NodeList>('GET', `/v1/nodes${query}`, { as: p });
      expect(response.status, query).toBe(200);
      return response.body.nodes.map((n) => n.node.id);
    };

    expect(await ids('')).toEqual([a.id, b.id, c.id]);
    expect(await ids(`?platformId=${p.platformId}`)).toEqual([a.id, b.id]);
    expect(await ids(`?regionId=${p.regionId}`)).toEqual([a.id, c.id]);
    expect(await ids(`?platformId=${p.platformId}&regionId=${p.regionId}`)).toEqual([a.id]);
    expect(await ids('?serviceStatus=SERVICE_STATUS_ONLINE')).toEqual([b.id]);
    expect(await ids('?serviceStatus=SERVICE_STATUS_OFFLINE')).toEqual([a.id, c.id]);
    expect(await ids('?search=fra')).toEqual([a.id, c.id]);
    expect(await ids('?search=%25')).toEqual([]);
    expect(await ids('?search=pve_')).toEqual([]);

    const plain = await t.call<NodeList>('GET', '/v1/nodes', { as: p });
    expect(plain.body.nodes.every((n) => !('expandedRegion' in n))).toBe(true);
    for (const query of ['?expand[]=region', '?expand=region']) {
      const expanded = await t.call<NodeList>('GET', `/v1/nodes${query}&regionId=${amsterdam}`, { as: p });
      expect(expanded.body.nodes).toHaveLength(1);
      expect(expanded.body.nodes[0]?.expandedRegion).toMatchObject({
        id: amsterdam,
        cityCountry: { cityName: 'Amsterdam' },
      });
    }
    expect((await t.call('GET', '/v1/nodes?expand[]=platform', { as: p })).status).toBe(400);

    const first = await t.call<NodeList>('GET', '/v1/nodes?page=0&pageSize=2', { as: p });
    const second = await t.call<NodeList>('GET', '/v1/nodes?page=1&pageSize=2&expand[]=region', { as: p });
    expect(first.body.nodes.map((n) => n.node.id)).toEqual([a.id, b.id]);
    expect(second.body.nodes.map((n) => n.node.id)).toEqual([c.id]);
    expect([first.body.totalCount, second.body.totalCount]).toEqual([3, 3]);
    expect((await t.call<NodeList>('GET', '/v1/nodes?page=5', { as: p })).body).toEqual({
      nodes: [],
      totalCount: 3,
    });
  });

  it("hides a node from every other organization, and lets it go only by its owner's delete", async () => {
    const p = await provider();
    const other = await provider();
    const node = await createNode(p, requiredNodeFields(p.platformId, p.regionId));
    await createNode(other, requiredNodeFields(other.platformId, other.regionId));

    expect((await t.call('GET', `/v1/node/${node.id}`, { as: other })).status).toBe(404);
    expect(
      (await t.call('PATCH', `/v1/node/${node.id}`, { as: other, body: { vmidSeed: 500 } })).status,
    ).toBe(404);
    expect((await t.call('DELETE', `/v1/node/${node.id}`, { as: other })).status).toBe(404);
    const othersList = await t.call<NodeList>('GET', `/v1/nodes?platformId=${p.platformId}`, { as: other });
    expect(othersList.body.totalCount).toBe(0);
    expect((await t.call<{ node: NodeView }>('GET', `/v1/node/${node.id}`, { as: p })).body.node).toEqual(
      node,
    );

    expect((await t.call('DELETE', `/v1/node/${node.id}`, { as: p })).status).toBe(200);
    expect((await t.call('GET', `/v1/node/${node.id}`, { as: p })).status).toBe(404);
    expect((await t.call('DELETE', `/v1/node/${node.id}`, { as: p })).status).toBe(404);
    expect(await nodeCount(other)).toBe(1);
  });

  it('refuses to delete a node a VM template is registered on, naming the remedy, and keeps it', async () => {
    const p = await provider();
    const node = await createNode(p, requiredNodeFields(p.platformId, p.regionId));
    const cloudInit = await t.cp.db
      .insertInto('cloud_init_templates')
      .values({
        organization_id: p.organizationId,
        name: 'plain',
        user_data: '#cloud-config\n',
        vendor_data: '',
        network_data: '',
        storage: 'local',
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.cp.db
      .insertInto('vm_templates')
      .values({
        organization_id: p.organizationId,
        node_id: node.id,
        cloud_init_template_id: cloudInit.id,
        name: 'Ubuntu 24.04',
        distro: 'DISTRO_UBUNTU_24_04',
        template_vmid: 9000,
        proxmox_cpu_type: 'host',
        updated_at: new Date(),
      })
      .execute();

    const refused = await t.call<ErrorBody>('DELETE', `/v1/node/${node.id}`, { as: p });
    expect(refused.status).toBe(412);
    expect(refused.body.message).toBe(
      'The node still has VM templates registered on it or plans placing VMs on it: delete those templates and take the node out of those plans first.',
    );
    expect((await t.call('GET', `/v1/node/${node.id}`, { as: p })).status).toBe(200);
  });

  it('is for providers only', async () => {
    const client = await t.register('ORGANIZATION_TYPE_CLIENT');
    const p = await provider();
    const list = await t.call('GET', '/v1/nodes', { as: client });
    expect(list.status).toBe(403);
    expect(list.body.code).toBe('PERMISSION_DENIED');
    const create = await t.call('POST', '/v1/node', {
      as: client,
      body: requiredNodeFields(p.platformId, p.regionId),
    });
    expect(create.status).toBe(403);
    expect((await t.call('GET', '/v1/nodes')).status).toBe(401);
  });
});
