import { SEED_CLOUD_INIT_TEMPLATES } from '@noderings/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type ApiResponse,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { createRegion, insertPlatform, requiredNodeFields } from '../nodes/node.test-support.js';

interface VmTemplateView {
  id: string;
  name: string;
  distro: string;
  templateId: number;
  nodeId: string;
  nodeName: string;
  platformId: string;
  platformName: string;
  cloudInitTemplateId: string;
  proxmoxCpuType: string;
  organizationId: string;
  createTime: string;
  updateTime: string;
}

interface VmTemplateList {
  vmTemplates: VmTemplateView[];
  totalCount: number;
  totalPages: number;
}

const SEED_ID = SEED_CLOUD_INIT_TEMPLATES[0]?.id ?? '';

function fields(response: ApiResponse): string[] {
  const details = response.body.details as { fieldViolations: { field: string }[] }[];
  return details.flatMap((d) => d.fieldViolations.map((v) => v.field));
}

describe.each(DATABASE_KINDS)('VM templates on the %s database', (kind) => {
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
  });
  afterAll(() => t.close());

  interface Provider extends Caller {
    organizationId: string;
    platformId: string;
    regionId: string;
    cloudInitTemplateId: string;
  }

  async function provider(): Promise<Provider> {
    const caller = await t.register();
    const copy = await t.call<{ cloudInitTemplate: { id: string } }>('POST', '/v1/cloudinittemplate', {
      as: caller,
      body: { name: 'ubuntu', copyFromId: SEED_ID },
    });
    return {
      ...caller,
      platformId: await insertPlatform(t, caller.organizationId),
      regionId: await createRegion(t, caller),
      cloudInitTemplateId: copy.body.cloudInitTemplate.id,
    };
  }

  async function node(p: Provider, name: string, platformId = p.platformId): Promise<string> {
    const response = await t.call<{ node: { id: string } }>('POST', '/v1/node', {
      as: p,
      body: requiredNodeFields(platformId, p.regionId, name),
    });
    if (response.status !== 201) throw new Error(`node create failed: ${JSON.stringify(response.body)}`);
    return response.body.node.id;
  }

  function body(p: Provider, nodeId: string, distro: string, templateId: number): Record<string, unknown> {
    return {
      name: `${distro} on ${nodeId.slice(0, 4)}`,
      distro,
      templateId,
      nodeId,
      cloudInitTemplateId: p.cloudInitTemplateId,
    };
  }

  async function create(p: Provider, values: Record<string, unknown>): Promise<VmTemplateView> {
    const response = await t.call<{ vmTemplate: VmTemplateView }>('POST', '/v1/vmtemplate', {
      as: p,
      body: values,
    });
    if (response.status !== 201) throw new Error(`create failed: ${JSON.stringify(response.body)}`);
    return response.body.vmTemplate;
  }

  async function count(p: Caller): Promise<number> {
    return (await t.call<VmTemplateList>('GET', '/v1/vmtemplates', { as: p })).body.totalCount;
  }

  it('creates a template with its node and platform names, reads, changes and deletes it', async () => {
    const p = await provider();
    const nodeId = await node(p, 'pve1');
    const created = await t.call<{ vmTemplate: VmTemplateView }>('POST', '/v1/vmtemplate', {
      as: p,
      body: {
        name: 'Ubuntu 24.04',
        distro: 'DISTRO_UBUNTU_24_04',
        templateId: 9000,
        nodeId,
        cloudInitTemplateId: p.cloudInitTemplateId,
      },
    });
    expect(created.status).toBe(201);
    const template = created.body.vmTemplate;
    const platformName = (
      await t.cp.db
        .selectFrom('platforms')
        .select('name')
        .where('id', '=', p.platformId)
        .executeTakeFirstOrThrow()
    ).name;
    expect(template).toEqual({
      id: expect.any(String) as unknown,
      name: 'Ubuntu 24.04',
      distro: 'DISTRO_UBUNTU_24_04',
      templateId: 9000,
      nodeId,
      nodeName: 'pve1',
      platformId: p.platformId,
      platformName,
      cloudInitTemplateId: p.cloudInitTemplateId,
      proxmoxCpuType: 'host',
      organizationId: p.organizationId,
      createTime: expect.any(String) as unknown,
      updateTime: expect.any(String) as unknown,
    });
    expect((await t.call('GET', `/v1/vmtemplate/${template.id}`, { as: p })).body).toEqual({
      vmTemplate: template,
    });

    const other = await t.call<{ cloudInitTemplate: { id: string } }>('POST', '/v1/cloudinittemplate', {
      as: p,
      body: { name: 'other', copyFromId: SEED_ID },
    });
    const patched = await t.call<{ vmTemplate: VmTemplateView }>('PATCH', `/v1/vmtemplate/${template.id}`, {
      as: p,
      body: {
        templateId: 9001,
        proxmoxCpuType: 'x86-64-v2-AES',
        distro: 'DISTRO_UBUNTU_26_04',
        cloudInitTemplateId: other.body.cloudInitTemplate.id,
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.vmTemplate).toMatchObject({
      name: 'Ubuntu 24.04',
      templateId: 9001,
      proxmoxCpuType: 'x86-64-v2-AES',
      distro: 'DISTRO_UBUNTU_26_04',
      cloudInitTemplateId: other.body.cloudInitTemplate.id,
      nodeName: 'pve1',
    });
    expect((await t.call('PATCH', `/v1/vmtemplate/${template.id}`, { as: p, body: { nodeId } })).status).toBe(
      400,
    );

    expect((await t.call('DELETE', `/v1/vmtemplate/${template.id}`, { as: p })).body).toEqual({
      success: true,
    });
    expect((await t.call('GET', `/v1/vmtemplate/${template.id}`, { as: p })).status).toBe(404);
    expect((await t.call('DELETE', `/v1/vmtemplate/${template.id}`, { as: p })).status).toBe(404);
  });

  it('refuses bad fields with 400 naming them, and writes nothing', async () => {
    const p = await provider();
    const nodeId = await node(p, 'pve1');
    const valid = body(p, nodeId, 'DISTRO_DEBIAN_12', 9000);
    const cases: [Record<string, unknown>, string][] = [
      [{ templateId: 99 }, 'templateId'],
      [{ templateId: 1_000_000_000 }, 'templateId'],
      [{ templateId: 9000.5 }, 'templateId'],
      [{ distro: 'DISTRO_WINDOWS_11' }, 'distro'],
      [{ distro: undefined }, 'distro'],
      [{ proxmoxCpuType: 'host,flags=+aes' }, 'proxmoxCpuType'],
      [{ name: '' }, 'name'],
      [{ nodeId: 'pve1' }, 'nodeId'],
      [{ cloudInitTemplateId: undefined }, 'cloudInitTemplateId'],
      [{ platformId: p.platformId }, 'platformId'],
    ];
    for (const [change, field] of cases) {
      const response = await t.call('POST', '/v1/vmtemplate', { as: p, body: { ...valid, ...change } });
      expect(response.status, JSON.stringify(change)).toBe(400);
      expect(fields(response), JSON.stringify(change)).toContain(field);
    }
    expect(await count(p)).toBe(0);
  });

  it('needs the node and the cloud-init template of the organization, and a copy rather than a seed', async () => {
    const p = await provider();
    const other = await provider();
    const ownNode = await node(p, 'pve1');
    const foreignNode = await node(other, 'pve1');
    const foreignNodeCall = await t.call('POST', '/v1/vmtemplate', {
      as: p,
      body: body(p, foreignNode, 'DISTRO_DEBIAN_12', 9000),
    });
    expect([foreignNodeCall.status, foreignNodeCall.body.message]).toEqual([
      404,
      `Node ${foreignNode} was not found.`,
    ]);
    const foreignTemplate = await t.call('POST', '/v1/vmtemplate', {
      as: p,
      body: { ...body(p, ownNode, 'DISTRO_DEBIAN_12', 9000), cloudInitTemplateId: other.cloudInitTemplateId },
    });
    expect(foreignTemplate.status).toBe(404);
    const seed = await t.call('POST', '/v1/vmtemplate', {
      as: p,
      body: { ...body(p, ownNode, 'DISTRO_DEBIAN_12', 9000), cloudInitTemplateId: SEED_ID },
    });
    expect([seed.status, seed.body.code]).toEqual([412, 'FAILED_PRECONDITION']);
    expect(await count(p)).toBe(0);

    const template = await create(p, body(p, ownNode, 'DISTRO_DEBIAN_12', 9000));
    const relink = await t.call('PATCH', `/v1/vmtemplate/${template.id}`, {
      as: p,
      body: { cloudInitTemplateId: other.cloudInitTemplateId },
    });
    expect(relink.status).toBe(404);
    expect(
      (await t.call<{ vmTemplate: VmTemplateView }>('GET', `/v1/vmtemplate/${template.id}`, { as: p })).body
        .vmTemplate,
    ).toEqual(template);
  });

  it('keeps one template per node and distro, and per node and VMID', async () => {
    const p = await provider();
    const pve1 = await node(p, 'pve1');
    const pve2 = await node(p, 'pve2');
    await create(p, body(p, pve1, 'DISTRO_DEBIAN_12', 9000));
    const sameDistro = await t.call('POST', '/v1/vmtemplate', {
      as: p,
      body: body(p, pve1, 'DISTRO_DEBIAN_12', 9001),
    });
    expect([sameDistro.status, sameDistro.body.code]).toEqual([409, 'ALREADY_EXISTS']);
    expect(sameDistro.body.message).toBe('Node pve1 already has a template for DISTRO_DEBIAN_12.');
    const sameVmid = await t.call('POST', '/v1/vmtemplate', {
      as: p,
      body: body(p, pve1, 'DISTRO_DEBIAN_13', 9000),
    });
    expect([sameVmid.status, sameVmid.body.message]).toEqual([
      409,
      'Node pve1 already has a template with VMID 9000.',
    ]);
    await create(p, body(p, pve2, 'DISTRO_DEBIAN_12', 9000));
    const second = await create(p, body(p, pve1, 'DISTRO_DEBIAN_13', 9001));
    const clash = await t.call('PATCH', `/v1/vmtemplate/${second.id}`, {
      as: p,
      body: { distro: 'DISTRO_DEBIAN_12' },
    });
    expect(clash.status).toBe(409);
    expect(await count(p)).toBe(3);
  });

  it('filters, searches, and pages without splitting a node’s templates', async () => {
    const p = await provider();
    const secondPlatform = await insertPlatform(t, p.organizationId);
    const a = await node(p, 'alpha');
    const b = await node(p, 'bravo', secondPlatform);
    const c = await node(p, 'charlie');
    const distros = ['DISTRO_DEBIAN_12', 'DISTRO_DEBIAN_13', 'DISTRO_ROCKY_9'];
    let vmid = 9000;
    for (const [nodeId, n] of [
      [a, 2],
      [b, 3],
      [c, 1],
    ] as const) {
      for (const distro of distros.slice(0, n))
        await create(p, { ...body(p, nodeId, distro, vmid++), name: `tpl ${distro}` });
    }
    const list = async (query: string) => {
      const response = await t.call<VmTemplateList>('GET', `/v1/vmtemplates${query}`, { as: p });
      expect(response.status, query).toBe(200);
      return response.body;
    };
    const nodesOf = (l: VmTemplateList) => l.vmTemplates.map((v) => v.nodeName);

    expect(nodesOf(await list(''))).toEqual(['alpha', 'alpha', 'bravo', 'bravo', 'bravo', 'charlie']);
    const pages = [
      await list('?pageSize=3&page=0'),
      await list('?pageSize=3&page=1'),
      await list('?pageSize=3&page=2'),
    ];
    expect(pages.map(nodesOf)).toEqual([['alpha', 'alpha'], ['bravo', 'bravo', 'bravo'], ['charlie']]);
    expect(pages.map((l) => [l.totalCount, l.totalPages])).toEqual([
      [6, 3],
      [6, 3],
      [6, 3],
    ]);
    const small = [await list('?pageSize=1&page=0'), await list('?pageSize=1&page=1')];
    expect(small.map(nodesOf)).toEqual([
      ['alpha', 'alpha'],
      ['bravo', 'bravo', 'bravo'],
    ]);
    expect(small[0]?.totalPages).toBe(3);
    expect(await list('?pageSize=3&page=3')).toEqual({ vmTemplates: [], totalCount: 6, totalPages: 3 });

    expect(nodesOf(await list(`?platformId=${secondPlatform}`))).toEqual(['bravo', 'bravo', 'bravo']);
    expect(nodesOf(await list(`?nodeId=${c}`))).toEqual(['charlie']);
    expect(nodesOf(await list('?distro=DISTRO_DEBIAN_13'))).toEqual(['alpha', 'bravo']);
    expect(nodesOf(await list('?search=CHAR'))).toEqual(['charlie']);
    expect(nodesOf(await list('?search=rocky'))).toEqual(['bravo']);
    expect((await list('?search=%25')).totalCount).toBe(0);
    expect((await t.call('GET', '/v1/vmtemplates?distro=DISTRO_BEOS', { as: p })).status).toBe(400);
  });

  it("hides another organization's templates: 404 on every route, nothing changed", async () => {
    const p = await provider();
    const stranger = await provider();
    const template = await create(p, body(p, await node(p, 'pve1'), 'DISTRO_ROCKY_10', 9000));
    const path = `/v1/vmtemplate/${template.id}`;
    expect((await t.call('GET', path, { as: stranger })).status).toBe(404);
    expect((await t.call('PATCH', path, { as: stranger, body: { name: 'mine' } })).status).toBe(404);
    expect((await t.call('DELETE', path, { as: stranger })).status).toBe(404);
    expect(await count(stranger)).toBe(0);
    expect((await t.call<{ vmTemplate: VmTemplateView }>('GET', path, { as: p })).body.vmTemplate).toEqual(
      template,
    );
  });

  it('keeps a node with templates from being deleted', async () => {
    const p = await provider();
    const nodeId = await node(p, 'pve1');
    await create(p, body(p, nodeId, 'DISTRO_ALMALINUX_9', 9000));
    expect((await t.call('DELETE', `/v1/node/${nodeId}`, { as: p })).status).toBe(412);
  });

  it('is for providers only', async () => {
    const client = await t.register('ORGANIZATION_TYPE_CLIENT');
    expect((await t.call('GET', '/v1/vmtemplates', { as: client })).status).toBe(403);
    expect((await t.call('GET', '/v1/vmtemplates')).status).toBe(401);
  });
});
