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

interface TemplateView {
  id: string;
  name: string;
  userData: string;
  vendorData: string;
  networkData: string;
  storage: string;
  organizationId: string | null;
  isTemplate: boolean;
  createTime: string | null;
  updateTime: string | null;
}

interface TemplateList {
  cloudInitTemplates: TemplateView[];
  totalCount: number;
}

const [UBUNTU_SEED, DEBIAN_SEED] = SEED_CLOUD_INIT_TEMPLATES;
const USER_DATA = '#cloud-config\nhostname: {{ hostname }}\nssh_authorized_keys: {{ ssh_authorized_keys }}\n';

function violations(response: ApiResponse): { field: string; description: string }[] {
  const details = response.body.details as { fieldViolations: { field: string; description: string }[] }[];
  return details.flatMap((d) => d.fieldViolations);
}

describe.each(DATABASE_KINDS)('cloud-init templates on the %s database', (kind) => {
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
  });
  afterAll(() => t.close());

  async function create(as: Caller, body: Record<string, unknown>): Promise<TemplateView> {
    const response = await t.call<{ cloudInitTemplate: TemplateView }>('POST', '/v1/cloudinittemplate', {
      as,
      body,
    });
    if (response.status !== 201) throw new Error(`create failed: ${JSON.stringify(response.body)}`);
    return response.body.cloudInitTemplate;
  }

  async function ownCount(as: Caller): Promise<number> {
    return (await t.call<TemplateList>('GET', '/v1/cloudinittemplates?filterIsTemplate=false', { as })).body
      .totalCount;
  }

  it('creates, reads, changes and deletes a template, and audits each change', async () => {
    const provider = await t.register();
    const created = await t.call<{ cloudInitTemplate: TemplateView }>('POST', '/v1/cloudinittemplate', {
      as: provider,
      body: { name: 'web', userData: USER_DATA, networkData: 'version: 2\nethernets: {}\n' },
    });
    expect(created.status).toBe(201);
    const template = created.body.cloudInitTemplate;
    expect(template).toEqual({
      id: expect.any(String) as unknown,
      name: 'web',
      userData: USER_DATA,
      vendorData: '',
      networkData: 'version: 2\nethernets: {}\n',
      storage: 'local',
      organizationId: provider.organizationId,
      isTemplate: false,
      createTime: expect.any(String) as unknown,
      updateTime: expect.any(String) as unknown,
    });
    expect((await t.call('GET', `/v1/cloudinittemplate/${template.id}`, { as: provider })).body).toEqual({
      cloudInitTemplate: template,
    });

    const patched = await t.call<{ cloudInitTemplate: TemplateView }>(
      'PATCH',
      `/v1/cloudinittemplate/${template.id}`,
      { as: provider, body: { vendorData: '#cloud-config\npackages: [htop]\n', storage: 'iso-store' } },
    );
    expect(patched.status).toBe(200);
    expect(patched.body.cloudInitTemplate).toMatchObject({
      name: 'web',
      userData: USER_DATA,
      vendorData: '#cloud-config\npackages: [htop]\n',
      storage: 'iso-store',
    });

    expect((await t.call('DELETE', `/v1/cloudinittemplate/${template.id}`, { as: provider })).body).toEqual({
      success: true,
    });
    expect((await t.call('GET', `/v1/cloudinittemplate/${template.id}`, { as: provider })).status).toBe(404);
    await expect
      .poll(async () =>
        (
          await t.cp.db
            .selectFrom('audit_events')
            .select(['action', 'status_code'])
            .where('organization_id', '=', provider.organizationId)
            .where('action', 'like', 'cloud_init_template.%')
            .orderBy('id')
            .execute()
        ).map((e) => [e.action, e.status_code]),
      )
      .toEqual([
        ['cloud_init_template.create', 201],
        ['cloud_init_template.update', 200],
        ['cloud_init_template.delete', 200],
      ]);
  });

  it('lists the seeds beside the organization’s own templates, filtered and paged', async () => {
    const provider = await t.register();
    await create(provider, { name: 'b-own', userData: USER_DATA });
    await create(provider, { name: 'a-own', userData: USER_DATA });
    const names = async (query: string) => {
      const response = await t.call<TemplateList>('GET', `/v1/cloudinittemplates${query}`, { as: provider });
      expect(response.status, query).toBe(200);
      return [response.body.cloudInitTemplates.map((c) => c.name), response.body.totalCount];
    };
    expect(await names('')).toEqual([['Ubuntu (seed)', 'Debian (seed)', 'a-own', 'b-own'], 4]);
    expect(await names('?filterIsTemplate=true')).toEqual([['Ubuntu (seed)', 'Debian (seed)'], 2]);
    expect(await names('?filterIsTemplate=false')).toEqual([['a-own', 'b-own'], 2]);
    expect(await names('?pageSize=3&page=0')).toEqual([['Ubuntu (seed)', 'Debian (seed)', 'a-own'], 4]);
    expect(await names('?pageSize=3&page=1')).toEqual([['b-own'], 4]);
    expect(await names('?pageSize=1&page=1')).toEqual([['Debian (seed)'], 4]);
    expect(await names('?pageSize=1&page=3')).toEqual([['b-own'], 4]);
    expect(await names('?page=9')).toEqual([[], 4]);

    const seed = await t.call<TemplateList>('GET', '/v1/cloudinittemplates?filterIsTemplate=true', {
      as: provider,
    });
    expect(seed.body.cloudInitTemplates[0]).toEqual({
      id: UBUNTU_SEED?.id,
      name: 'Ubuntu (seed)',
      userData: UBUNTU_SEED?.userData,
      vendorData: '',
      networkData: '',
      storage: 'local',
      organizationId: null,
      isTemplate: true,
      createTime: null,
      updateTime: null,
    });
  });

  it('copies a seed, taking the fields left out from it, and never lets a seed change', async () => {
    const provider = await t.register();
    const copy = await create(provider, { name: 'my debian', copyFromId: DEBIAN_SEED?.id });
    expect(copy).toMatchObject({
      name: 'my debian',
      userData: DEBIAN_SEED?.userData,
      organizationId: provider.organizationId,
      isTemplate: false,
    });
    const customised = await create(provider, {
      name: 'debian, own vendor data',
      copyFromId: DEBIAN_SEED?.id,
      vendorData: '#cloud-config\nruncmd: [echo hi]\n',
    });
    expect(customised.vendorData).toBe('#cloud-config\nruncmd: [echo hi]\n');
    expect(customised.userData).toBe(DEBIAN_SEED?.userData);
    const copyOfCopy = await create(provider, { name: 'copy of copy', copyFromId: customised.id });
    expect(copyOfCopy.vendorData).toBe(customised.vendorData);

    const seedId = UBUNTU_SEED?.id ?? '';
    const patch = await t.call('PATCH', `/v1/cloudinittemplate/${seedId}`, {
      as: provider,
      body: { name: 'x' },
    });
    expect([patch.status, patch.body.code]).toEqual([412, 'FAILED_PRECONDITION']);
    expect((await t.call('DELETE', `/v1/cloudinittemplate/${seedId}`, { as: provider })).status).toBe(412);
    expect(
      (
        await t.call<{ cloudInitTemplate: TemplateView }>('GET', `/v1/cloudinittemplate/${seedId}`, {
          as: provider,
        })
      ).body.cloudInitTemplate.userData,
    ).toBe(UBUNTU_SEED?.userData);

    const other = await t.register();
    const foreignCopy = await t.call('POST', '/v1/cloudinittemplate', {
      as: other,
      body: { name: 'stolen', copyFromId: copy.id },
    });
    expect(foreignCopy.status).toBe(404);
    expect(await ownCount(other)).toBe(0);
  });

  it('refuses broken templates with the document, line and column, and writes nothing', async () => {
    const provider = await t.register();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [
        { name: 'x', userData: '#cloud-config\nhostname: web\nfqdn: {{ host_name }}\n' },
        'userData',
        /^line 3, column 7: unknown variable host_name/,
      ],
      [
        { name: 'x', userData: 'hostname: {{ hostname }}\n' },
        'userData',
        /^line 1, column 1: must start with the line #cloud-config/,
      ],
      [
        { name: 'x', userData: '#cloud-config\nruncmd:\n  - echo {{ hostname\n' },
        'userData',
        /^line 3, column 10: \{\{ is not closed/,
      ],
      [{ name: 'x', userData: '#cloud-config\na: 1\na: 2\n' }, 'userData', /^line 3/],
      [{ name: 'x', userData: USER_DATA, vendorData: 'packages: [x]\n' }, 'vendorData', /^line 1, column 1/],
      [{ name: 'x', userData: USER_DATA, networkData: 'ethernets: {}\n' }, 'networkData', /version/],
      [
        { name: 'x', userData: '#cloud-config\nx: {{ secrets.lower_case }}\n' },
        'userData',
        /^line 2, column 4/,
      ],
      [{ name: 'x' }, 'userData', /required/],
      [{ name: '', userData: USER_DATA }, 'name', /./],
      [{ name: 'x', userData: USER_DATA, storage: 'local storage' }, 'storage', /./],
      [{ name: 'x', userData: 'x'.repeat(64 * 1024 + 1) }, 'userData', /./],
      [{ name: 'x', userData: USER_DATA, isTemplate: true }, 'isTemplate', /not a known field/],
    ];
    for (const [body, field, description] of cases) {
      const response = await t.call('POST', '/v1/cloudinittemplate', { as: provider, body });
      const where = JSON.stringify(body).slice(0, 80);
      expect(response.status, where).toBe(400);
      expect(response.body.code, where).toBe('INVALID_ARGUMENT');
      const found = violations(response).find((v) => v.field === field);
      expect(found?.description, where).toMatch(description);
    }
    expect(await ownCount(provider)).toBe(0);

    const template = await create(provider, { name: 'ok', userData: USER_DATA });
    const broken = await t.call('PATCH', `/v1/cloudinittemplate/${template.id}`, {
      as: provider,
      body: { userData: '#cloud-config\nx: {{ nope }}\n' },
    });
    expect(broken.status).toBe(400);
    expect(violations(broken)).toEqual([
      {
        field: 'userData',
        description: expect.stringMatching(/^line 2, column 4: unknown variable nope/) as unknown,
      },
    ]);
    expect(
      (
        await t.call<{ cloudInitTemplate: TemplateView }>('GET', `/v1/cloudinittemplate/${template.id}`, {
          as: provider,
        })
      ).body.cloudInitTemplate,
    ).toEqual(template);
  });

  it('accepts a secret or variable that does not exist yet: it is looked up when a VM is ordered', async () => {
    const provider = await t.register();
    const template = await create(provider, {
      name: 'later',
      userData: '#cloud-config\nwrite_files: [{path: /k, content: {{ secrets.NOT_YET }}}]\n',
    });
    expect(template.userData).toContain('secrets.NOT_YET');
  });

  it('keeps names unique per organization', async () => {
    const provider = await t.register();
    await create(provider, { name: 'web', userData: USER_DATA });
    const duplicate = await t.call('POST', '/v1/cloudinittemplate', {
      as: provider,
      body: { name: 'web', userData: USER_DATA },
    });
    expect([duplicate.status, duplicate.body.code]).toEqual([409, 'ALREADY_EXISTS']);
    const second = await create(provider, { name: 'db', userData: USER_DATA });
    const rename = await t.call('PATCH', `/v1/cloudinittemplate/${second.id}`, {
      as: provider,
      body: { name: 'web' },
    });
    expect(rename.status).toBe(409);
    const other = await t.register();
    await create(other, { name: 'web', userData: USER_DATA });
    expect(await ownCount(provider)).toBe(2);
  });

  it('refuses to delete a template a VM template still uses', async () => {
    const provider = await t.register();
    const platformId = await insertPlatform(t, provider.organizationId);
    const regionId = await createRegion(t, provider);
    const node = await t.call<{ node: { id: string } }>('POST', '/v1/node', {
      as: provider,
      body: requiredNodeFields(platformId, regionId),
    });
    const template = await create(provider, { name: 'linked', copyFromId: UBUNTU_SEED?.id });
    const vmTemplate = await t.call<{ vmTemplate: { id: string } }>('POST', '/v1/vmtemplate', {
      as: provider,
      body: {
        name: 'noble',
        distro: 'DISTRO_UBUNTU_24_04',
        templateId: 9000,
        nodeId: node.body.node.id,
        cloudInitTemplateId: template.id,
      },
    });
    expect(vmTemplate.status).toBe(201);
    const refused = await t.call('DELETE', `/v1/cloudinittemplate/${template.id}`, { as: provider });
    expect([refused.status, refused.body.code]).toEqual([412, 'FAILED_PRECONDITION']);
    expect(refused.body.message).toContain('noble');
    expect((await t.call('GET', `/v1/cloudinittemplate/${template.id}`, { as: provider })).status).toBe(200);
    await t.call('DELETE', `/v1/vmtemplate/${vmTemplate.body.vmTemplate.id}`, { as: provider });
    expect((await t.call('DELETE', `/v1/cloudinittemplate/${template.id}`, { as: provider })).status).toBe(
      200,
    );
  });

  it("hides another organization's templates: 404 on every route, nothing changed", async () => {
    const owner = await t.register();
    const stranger = await t.register();
    const template = await create(owner, { name: 'private', userData: USER_DATA });
    const path = `/v1/cloudinittemplate/${template.id}`;
    expect((await t.call('GET', path, { as: stranger })).status).toBe(404);
    expect((await t.call('PATCH', path, { as: stranger, body: { name: 'mine' } })).status).toBe(404);
    expect((await t.call('DELETE', path, { as: stranger })).status).toBe(404);
    expect((await t.call('POST', `${path}:render`, { as: stranger, body: {} })).status).toBe(404);
    expect(await ownCount(stranger)).toBe(0);
    expect(
      (await t.call<{ cloudInitTemplate: TemplateView }>('GET', path, { as: owner })).body.cloudInitTemplate,
    ).toEqual(template);
  });

  it('is for providers only', async () => {
    const client = await t.register('ORGANIZATION_TYPE_CLIENT');
    expect((await t.call('GET', '/v1/cloudinittemplates', { as: client })).status).toBe(403);
    const refused = await t.call('POST', '/v1/cloudinittemplate', {
      as: client,
      body: { name: 'x', userData: USER_DATA },
    });
    expect(refused.status).toBe(403);
    expect((await t.call('GET', '/v1/cloudinittemplates')).status).toBe(401);
  });
});
