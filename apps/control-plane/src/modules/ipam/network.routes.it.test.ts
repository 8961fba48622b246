import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type TestControlPlane } from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import {
  createNetwork,
  createNode,
  createPrefix,
  ipamProvider,
  violatedFields,
  type ErrorBody,
  type NetworkView,
} from './ipam.test-support.js';

interface NetworkList {
  networks: NetworkView[];
  total: number;
}

describe.each(DATABASE_KINDS)('IPAM networks on the %s database', (kind) => {
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
  });
  afterAll(() => t.close());

  it('creates a network with the default MAC prefix, reads, lists, renames and deletes it', async () => {
    const p = await ipamProvider(t);
    const created = await t.call<{ network: NetworkView }>('POST', '/v1/ipam/networks', {
      as: p,
      body: { name: 'public v4', dnsServers: ['2001:DB8:0::53', '203.0.113.53', '2001:db8::53'] },
    });
    expect(created.status).toBe(201);
    const network = created.body.network;
    expect(network).toEqual({
      id: expect.any(String) as unknown,
      organizationId: p.organizationId,
      name: 'public v4',
      // One spelling per address, duplicates dropped.
      dnsServers: ['2001:db8::53', '203.0.113.53'],
      macAddressPrefix: 'BC:24:11',
      nodes: [],
      createTime: expect.any(String) as unknown,
      updateTime: expect.any(String) as unknown,
    });
    const read = await t.call<{ network: NetworkView }>('GET', `/v1/ipam/networks/${network.id}`, { as: p });
    expect(read.body.network).toEqual(network);

    const list = await t.call<NetworkList>('GET', '/v1/ipam/networks?pageSize=1', { as: p });
    expect(list.body).toEqual({ networks: [network], total: 1 });

    const patched = await t.call<{ network: NetworkView }>('PATCH', `/v1/ipam/networks/${network.id}`, {
      as: p,
      body: { name: 'renamed', macAddressPrefix: '02:ab:cd' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.network).toMatchObject({
      name: 'renamed',
      macAddressPrefix: '02:AB:CD',
      dnsServers: network.dnsServers,
    });

    expect((await t.call('DELETE', `/v1/ipam/networks/${network.id}`, { as: p })).status).toBe(200);
    expect((await t.call('GET', `/v1/ipam/networks/${network.id}`, { as: p })).status).toBe(404);
  });

  it.each([
    ['a malformed MAC prefix', { macAddressPrefix: 'BC:24' }, 'macAddressPrefix'],
    ['a multicast MAC prefix', { macAddressPrefix: '01:00:5e' }, 'macAddressPrefix'],
    ['a nameserver that is not an address', { dnsServers: ['203.0.113.53', 'dns.example'] }, 'dnsServers.1'],
    ['a blank name', { name: '   ' }, 'name'],
  ])('refuses %s with 400 naming the field, and writes nothing', async (_what, fields, field) => {
    const p = await ipamProvider(t);
    const response = await t.call<ErrorBody>('POST', '/v1/ipam/networks', {
      as: p,
      body: { name: 'n', ...fields },
    });
    expect(response.status).toBe(400);
    expect(violatedFields(response.body)).toContain(field);
    expect((await t.call<NetworkList>('GET', '/v1/ipam/networks', { as: p })).body.total).toBe(0);
  });

  it('refuses a second network of the same name with 409, in the same organization only', async () => {
    const p = await ipamProvider(t);
    const other = await ipamProvider(t);
    await createNetwork(t, p, { name: 'public' });
    const duplicate = await t.call<ErrorBody>('POST', '/v1/ipam/networks', {
      as: p,
      body: { name: 'public' },
    });
    expect(duplicate.status).toBe(409);
    expect(violatedFields(duplicate.body)).toEqual(['name']);
    await createNetwork(t, other, { name: 'public' });
    const second = await createNetwork(t, p, { name: 'private' });
    const renamed = await t.call('PATCH', `/v1/ipam/networks/${second.id}`, {
      as: p,
      body: { name: 'public' },
    });
    expect(renamed.status).toBe(409);
  });

  it('puts nodes on one network each, shows them both ways, and takes them off again', async () => {
    const p = await ipamProvider(t);
    const [pve1, pve2] = [await createNode(t, p, 'pve1'), await createNode(t, p, 'pve2')];
    const network = await createNetwork(t, p);
    const other = await createNetwork(t, p);

    const none = await t.call('GET', `/v1/ipam/nodes/${pve1.id}/network`, { as: p });
    expect(none).toEqual({ status: 200, body: {} });

    const assigned = await t.call<{ network: NetworkView }>(
      'POST',
      `/v1/ipam/networks/${network.id}/assign-node`,
      { as: p, body: { nodeIds: [pve1.id, pve2.id, pve1.id] } },
    );
    expect(assigned.status).toBe(200);
    expect(assigned.body.network.nodes.map((n) => n.name)).toEqual(['pve1', 'pve2']);
    // Assigning again to the same network changes nothing.
    const again = await t.call('POST', `/v1/ipam/networks/${network.id}/assign-node`, {
      as: p,
      body: { nodeIds: [pve1.id] },
    });
    expect(again.status).toBe(200);

    const nodes = await t.call('GET', `/v1/ipam/networks/${network.id}/nodes`, { as: p });
    expect(nodes.body).toEqual({
      nodes: [
        { id: pve1.id, name: 'pve1', platformId: p.platformId, regionId: p.regionId },
        { id: pve2.id, name: 'pve2', platformId: p.platformId, regionId: p.regionId },
      ],
      total: 2,
    });
    const ofNode = await t.call<{ network: NetworkView }>('GET', `/v1/ipam/nodes/${pve2.id}/network`, {
      as: p,
    });
    expect(ofNode.body.network.id).toBe(network.id);

    // One network per node: the other network is refused for both, even with a free node in the list.
    const pve3 = await createNode(t, p, 'pve3');
    const moved = await t.call<ErrorBody>('POST', `/v1/ipam/networks/${other.id}/assign-node`, {
      as: p,
      body: { nodeIds: [pve3.id, pve1.id] },
    });
    expect(moved.status).toBe(412);
    expect(moved.body.message).toContain('pve1');
    expect((await t.call('GET', `/v1/ipam/nodes/${pve3.id}/network`, { as: p })).body).toEqual({});

    expect(
      (await t.call('POST', `/v1/ipam/nodes/${pve1.id}/unassign-network`, { as: p, body: {} })).status,
    ).toBe(200);
    expect((await t.call('GET', `/v1/ipam/nodes/${pve1.id}/network`, { as: p })).body).toEqual({});
    const movedNow = await t.call<{ network: NetworkView }>(
      'POST',
      `/v1/ipam/networks/${other.id}/assign-node`,
      { as: p, body: { nodeIds: [pve1.id] } },
    );
    expect(movedNow.body.network.nodes.map((n) => n.id)).toEqual([pve1.id]);
  });

  it("refuses another organization's node with 404 and assigns none of the list", async () => {
    const p = await ipamProvider(t);
    const stranger = await ipamProvider(t);
    const own = await createNode(t, p, 'pve1');
    const foreign = await createNode(t, stranger, 'pve1');
    const network = await createNetwork(t, p);
    const response = await t.call<ErrorBody>('POST', `/v1/ipam/networks/${network.id}/assign-node`, {
      as: p,
      body: { nodeIds: [own.id, foreign.id] },
    });
    expect(response.status).toBe(404);
    expect(response.body.message).toContain(foreign.id);
    expect((await t.call('GET', `/v1/ipam/nodes/${own.id}/network`, { as: p })).body).toEqual({});
    expect((await t.call('GET', `/v1/ipam/nodes/${foreign.id}/network`, { as: stranger })).body).toEqual({});
    expect((await t.call('GET', `/v1/ipam/nodes/${foreign.id}/network`, { as: p })).status).toBe(404);
    expect(
      (await t.call('POST', `/v1/ipam/nodes/${foreign.id}/unassign-network`, { as: p, body: {} })).status,
    ).toBe(404);
  });

  it('refuses to delete a network that still has nodes or prefixes (412)', async () => {
    const p = await ipamProvider(t);
    const node = await createNode(t, p, 'pve1');
    const network = await createNetwork(t, p);
    await t.call('POST', `/v1/ipam/networks/${network.id}/assign-node`, {
      as: p,
      body: { nodeIds: [node.id] },
    });
    const prefix = await createPrefix(t, p, {
      cidr: '192.0.2.0/24',
      gateway: '192.0.2.1',
      networkId: network.id,
    });

    const withBoth = await t.call<ErrorBody>('DELETE', `/v1/ipam/networks/${network.id}`, { as: p });
    expect(withBoth.status).toBe(412);
    expect(withBoth.body.message).toContain('1 node(s) and 1 prefix(es)');
    await t.call('POST', `/v1/ipam/nodes/${node.id}/unassign-network`, { as: p, body: {} });
    expect((await t.call('DELETE', `/v1/ipam/networks/${network.id}`, { as: p })).status).toBe(412);
    await t.call('PATCH', `/v1/ipam/prefixes/${prefix.id}`, { as: p, body: { networkId: null } });
    expect((await t.call('DELETE', `/v1/ipam/networks/${network.id}`, { as: p })).status).toBe(200);
  });

  it('lets a node with a network be deleted', async () => {
    const p = await ipamProvider(t);
    const node = await createNode(t, p, 'pve1');
    const network = await createNetwork(t, p);
    await t.call('POST', `/v1/ipam/networks/${network.id}/assign-node`, {
      as: p,
      body: { nodeIds: [node.id] },
    });
    expect((await t.call('DELETE', `/v1/node/${node.id}`, { as: p })).status).toBe(200);
    const read = await t.call<{ network: NetworkView }>('GET', `/v1/ipam/networks/${network.id}`, { as: p });
    expect(read.body.network.nodes).toEqual([]);
  });

  it('is for provider organizations only', async () => {
    const client = await t.register('ORGANIZATION_TYPE_CLIENT');
    expect((await t.call('GET', '/v1/ipam/networks', { as: client })).status).toBe(403);
  });
});
