import { randomBytes } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';

interface PlatformView {
  id: string;
  name: string;
  endpointUrl: string;
  driver: string;
  agentId: string | null;
  agentProvisioned: boolean;
  serviceStatus: string;
  organizationId: string;
  createTime: string;
  updateTime: string;
}

interface ErrorBody {
  code: string;
  message: string;
  details: { fieldViolations: { field: string }[] }[];
}

const DRIVER = 'PLATFORM_DRIVER_PROXMOX';

describe.each(DATABASE_KINDS)('platforms on the %s database', (kind) => {
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
  });
  afterAll(() => t.close());

  async function createAgent(as: Caller): Promise<string> {
    const response = await t.call<{ agent: { id: string } }>('POST', '/v1/agents', {
      as,
      body: {
        name: `agent ${randomBytes(4).toString('hex')}`,
        agentPublicIp: '203.0.113.30',
        gatewayRegion: 'AGENT_GATEWAY_REGION_AMS01',
        hypervisorDriver: 'HYPERVISOR_DRIVER_PROXMOX',
      },
    });
    if (response.status !== 201) throw new Error(`create agent failed: ${JSON.stringify(response.body)}`);
    return response.body.agent.id;
  }

  function create(as: Caller, body: Record<string, unknown>) {
    return t.call<{ platform: PlatformView }>('POST', '/v1/platform', {
      as,
      body: { name: 'Frankfurt production', driver: DRIVER, ...body },
    });
  }

  it('creates, lists, reads, updates and deletes a platform', async () => {
    const provider = await t.verifiedProvider();
    const agentId = await createAgent(provider);
    const created = await create(provider, { endpointUrl: 'https://pve1.example.test:8006', agentId });
    expect(created.status).toBe(201);
    const platform = created.body.platform;
    expect(platform).toMatchObject({
      name: 'Frankfurt production',
      endpointUrl: 'https://pve1.example.test:8006',
      driver: DRIVER,
      agentId,
      agentProvisioned: false,
      serviceStatus: 'SERVICE_STATUS_OFFLINE',
      organizationId: provider.organizationId,
    });

    const list = await t.call<{ platforms: PlatformView[]; totalCount: number }>(
      'GET',
      '/v1/platforms?serviceStatus=SERVICE_STATUS_OFFLINE&search=PVE1',
      { as: provider },
    );
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ platforms: [platform], totalCount: 1 });
    const online = await t.call<{ totalCount: number }>(
      'GET',
      '/v1/platforms?serviceStatus=SERVICE_STATUS_ONLINE',
      {
        as: provider,
      },
    );
    expect(online.body.totalCount).toBe(0);

    const read = await t.call<{ platform: PlatformView }>('GET', `/v1/platform/${platform.id}`, {
      as: provider,
    });
    expect(read.body.platform).toEqual(platform);

    const patched = await t.call<{ platform: PlatformView }>('PATCH', `/v1/platform/${platform.id}`, {
      as: provider,
      body: { name: 'Frankfurt staging', endpointUrl: 'https://PVE2.example.test:8006/' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.platform).toMatchObject({
      name: 'Frankfurt staging',
      endpointUrl: 'https://pve2.example.test:8006',
      agentId,
    });

    expect((await t.call('DELETE', `/v1/platform/${platform.id}`, { as: provider })).status).toBe(200);
    expect((await t.call('GET', `/v1/platform/${platform.id}`, { as: provider })).status).toBe(404);
  });

  it('shows whether orders can flow: only through a provisioned agent', async () => {
    const provider = await t.verifiedProvider();
    const agentId = await createAgent(provider);
    const unlinked = await create(provider, { endpointUrl: 'https://10.0.0.2:8006' });
    expect(unlinked.body.platform).toMatchObject({ agentId: null, agentProvisioned: false });
    await t.cp.db.updateTable('agents').set({ provisioned: true }).where('id', '=', agentId).execute();
    const linked = await create(provider, { endpointUrl: 'https://10.0.0.3:8006', agentId });
    expect(linked.body.platform).toMatchObject({ agentId, agentProvisioned: true });
  });

  it('normalises endpoint URLs and registers each endpoint once per organization', async () => {
    const provider = await t.verifiedProvider();
    const first = await create(provider, { endpointUrl: 'https://PVE.Example.TEST:8006/' });
    expect(first.body.platform.endpointUrl).toBe('https://pve.example.test:8006');
    for (const spelling of ['https://pve.example.test:8006', 'HTTPS://pve.EXAMPLE.test:8006/']) {
      const duplicate = await t.call<ErrorBody>('POST', '/v1/platform', {
        as: provider,
        body: { name: 'again', driver: DRIVER, endpointUrl: spelling },
      });
      expect(duplicate.status, spelling).toBe(409);
      expect(duplicate.body.code).toBe('ALREADY_EXISTS');
      expect(duplicate.body.message).toBe(
        'The endpoint https://pve.example.test:8006 is already registered in this organization.',
      );
    }
    // The default port is the same endpoint written another way.
    const plain = await create(provider, { endpointUrl: 'https://pve.example.test' });
    expect(plain.status).toBe(201);
    expect((await create(provider, { endpointUrl: 'https://pve.example.test:443' })).status).toBe(409);

    const second = await create(provider, { endpointUrl: 'https://other.example.test:8006' });
    const moved = await t.call<ErrorBody>('PATCH', `/v1/platform/${second.body.platform.id}`, {
      as: provider,
      body: { endpointUrl: 'https://pve.example.test:8006' },
    });
    expect(moved.status).toBe(409);

    const elsewhere = await create(await t.verifiedProvider(), {
      endpointUrl: 'https://pve.example.test:8006',
    });
    expect(elsewhere.status).toBe(201);
  });

  it('refuses bad input with field paths and writes nothing', async () => {
    const provider = await t.verifiedProvider();
    for (const endpointUrl of [
      'pve.example.test:8006',
      'http://pve.example.test:8006',
      'https://root:secret@pve.example.test:8006',
      'https://pve.example.test:8006/api2/json',
      'https://pve.example.test:8006?x=1',
      'https://pve.example.test:8006#top',
      'https://pve.example.test:99999',
    ]) {
      const response = await t.call<ErrorBody>('POST', '/v1/platform', {
        as: provider,
        body: { name: 'pve', driver: DRIVER, endpointUrl },
      });
      expect(response.status, endpointUrl).toBe(400);
      expect(
        response.body.details[0]?.fieldViolations.map((v) => v.field),
        endpointUrl,
      ).toEqual(['endpointUrl']);
      expect(response.body.message).not.toContain('secret');
    }
    const bad = await t.call<ErrorBody>('POST', '/v1/platform', {
      as: provider,
      body: {
        name: '',
        driver: 'PLATFORM_DRIVER_VIRTFUSION',
        endpointUrl: 'https://ok.example.test',
        agentId: 'x',
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0]?.fieldViolations.map((v) => v.field).sort()).toEqual([
      'agentId',
      'driver',
      'name',
    ]);
    expect(
      (await t.call<{ totalCount: number }>('GET', '/v1/platforms', { as: provider })).body.totalCount,
    ).toBe(0);
  });

  it('assigns and unassigns an agent of the same organization', async () => {
    const provider = await t.verifiedProvider();
    const [first, second] = [await createAgent(provider), await createAgent(provider)];
    const platform = (await create(provider, { endpointUrl: 'https://assign.example.test:8006' })).body
      .platform;
    const path = (verb: string) => `/v1/platforms/${platform.id}:${verb}`;

    const assigned = await t.call<{ platform: PlatformView }>('POST', path('AssignAgent'), {
      as: provider,
      body: { agentId: first },
    });
    expect(assigned.status).toBe(200);
    expect(assigned.body.platform.agentId).toBe(first);
    const again = await t.call('POST', path('AssignAgent'), { as: provider, body: { agentId: first } });
    expect(again.status).toBe(200);

    const taken = await t.call<ErrorBody>('POST', path('AssignAgent'), {
      as: provider,
      body: { agentId: second },
    });
    expect(taken.status).toBe(412);
    expect(taken.body.code).toBe('FAILED_PRECONDITION');
    const notThis = await t.call<ErrorBody>('POST', path('UnassignAgent'), {
      as: provider,
      body: { agentId: second },
    });
    expect(notThis.status).toBe(412);

    const unassigned = await t.call<{ platform: PlatformView }>('POST', path('UnassignAgent'), {
      as: provider,
      body: { agentId: first },
    });
    expect(unassigned.status).toBe(200);
    expect(unassigned.body.platform.agentId).toBeNull();
    expect(
      (await t.call('POST', path('UnassignAgent'), { as: provider, body: { agentId: first } })).status,
    ).toBe(200);
    const reassigned = await t.call<{ platform: PlatformView }>('POST', path('AssignAgent'), {
      as: provider,
      body: { agentId: second },
    });
    expect(reassigned.body.platform.agentId).toBe(second);

    await expect
      .poll(async () =>
        (
          await t.cp.db
            .selectFrom('audit_events')
            .select('action')
            .where('organization_id', '=', provider.organizationId)
            .where('action', 'like', 'platform.%')
            .execute()
        ).map((e) => e.action),
      )
      .toContain('platform.assignAgent');
  });

  it("treats another organization's agent and platform as not found", async () => {
    const provider = await t.verifiedProvider();
    const stranger = await t.verifiedProvider();
    const theirAgent = await createAgent(stranger);
    const withTheirs = await t.call<ErrorBody>('POST', '/v1/platform', {
      as: provider,
      body: { name: 'pve', driver: DRIVER, endpointUrl: 'https://theirs.example.test', agentId: theirAgent },
    });
    expect(withTheirs.status).toBe(404);
    expect(withTheirs.body).toMatchObject({
      code: 'NOT_FOUND',
      message: `Agent ${theirAgent} was not found.`,
    });

    const platform = (await create(provider, { endpointUrl: 'https://mine.example.test' })).body.platform;
    const assign = await t.call<ErrorBody>('POST', `/v1/platforms/${platform.id}:AssignAgent`, {
      as: provider,
      body: { agentId: theirAgent },
    });
    expect(assign.status).toBe(404);
    expect(assign.body.message).toBe(`Agent ${theirAgent} was not found.`);

    for (const [method, path, body] of [
      ['GET', `/v1/platform/${platform.id}`, undefined],
      ['PATCH', `/v1/platform/${platform.id}`, { name: 'mine now' }],
      ['DELETE', `/v1/platform/${platform.id}`, undefined],
      ['POST', `/v1/platforms/${platform.id}:AssignAgent`, { agentId: theirAgent }],
      ['POST', `/v1/platforms/${platform.id}:UnassignAgent`, { agentId: theirAgent }],
    ] as const) {
      const response = await t.call<ErrorBody>(method, path, { as: stranger, ...(body && { body }) });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.message).toBe(`Platform ${platform.id} was not found.`);
    }
    expect(
      (await t.call<{ totalCount: number }>('GET', '/v1/platforms', { as: stranger })).body.totalCount,
    ).toBe(0);
    expect(
      (await t.call<{ platform: PlatformView }>('GET', `/v1/platform/${platform.id}`, { as: provider })).body
        .platform.name,
    ).toBe('Frankfurt production');
  });

  it('refuses to delete a platform that still has nodes', async () => {
    const provider = await t.verifiedProvider();
    const platform = (await create(provider, { endpointUrl: 'https://nodes.example.test:8006' })).body
      .platform;
    const region = await t.call<{ id: string }>('POST', '/v1/regions', {
      as: provider,
      body: { cityCountryId: 'de-fra', datacenterId: 'equinix-fr5' },
    });
    const node = await t.cp.db
      .insertInto('nodes')
      .values({
        organization_id: provider.organizationId,
        platform_id: platform.id,
        region_id: region.body.id,
        name: 'pve1',
        service_status: 'SERVICE_STATUS_OFFLINE',
        maintenance_mode: false,
        vmid_seed: 1000,
        vm_storage_destination: 'local-lvm',
        backup_storage_destination: 'local',
        backup_storage_compression: 'zstd',
        cpu_overallocate_percent: 100,
        memory_overallocate_percent: 100,
        storage_overallocate_percent: 100,
        compute_type: 'shared',
        network_bridge: 'vmbr0',
        network_name: 'net0',
        network_model: 'virtio',
        network_vlan_id: 0,
        mac_address_prefix: 'BC:24:11',
        proxmox_cpu_type: 'host',
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const refused = await t.call<ErrorBody>('DELETE', `/v1/platform/${platform.id}`, { as: provider });
    expect(refused.status).toBe(412);
    expect(refused.body).toMatchObject({ code: 'FAILED_PRECONDITION' });
    expect((await t.call('GET', `/v1/platform/${platform.id}`, { as: provider })).status).toBe(200);

    await t.cp.db.deleteFrom('nodes').where('id', '=', node.id).execute();
    expect((await t.call('DELETE', `/v1/platform/${platform.id}`, { as: provider })).status).toBe(200);
  });

  it('pages with 0-based pages and is for providers only', async () => {
    const provider = await t.verifiedProvider();
    for (const host of ['a', 'b', 'c'])
      await create(provider, { endpointUrl: `https://${host}.example.test` });
    const first = await t.call<{ platforms: PlatformView[]; totalCount: number }>(
      'GET',
      '/v1/platforms?page=0&pageSize=2',
      { as: provider },
    );
    const second = await t.call<{ platforms: PlatformView[]; totalCount: number }>(
      'GET',
      '/v1/platforms?page=1&pageSize=2',
      { as: provider },
    );
    expect([first.body.platforms.length, second.body.platforms.length, first.body.totalCount]).toEqual([
      2, 1, 3,
    ]);

    const client = await t.register('ORGANIZATION_TYPE_CLIENT');
    const refused = await t.call<ErrorBody>('GET', '/v1/platforms', { as: client });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('PERMISSION_DENIED');
    const create403 = await t.call('POST', '/v1/platform', {
      as: client,
      body: { name: 'pve', driver: DRIVER, endpointUrl: 'https://client.example.test' },
    });
    expect(create403.status).toBe(403);
  });
});
