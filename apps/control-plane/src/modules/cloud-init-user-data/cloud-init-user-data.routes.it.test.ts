import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';

interface Warning {
  code: string;
  message: string;
  line: number;
  key: string;
}

interface ProfileView {
  id: string;
  name: string;
  userData: string;
  description: string;
  organizationId: string;
  validationWarnings: Warning[];
  createTime: string;
  updateTime: string;
}

describe.each(DATABASE_KINDS)('cloud-init user data on the %s database', (kind) => {
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
  });
  afterAll(() => t.close());

  async function create(as: Caller, body: Record<string, unknown>): Promise<ProfileView> {
    const response = await t.call<{ profile: ProfileView }>('POST', '/v1/cloudinituserdata', { as, body });
    if (response.status !== 201) throw new Error(`create failed: ${JSON.stringify(response.body)}`);
    return response.body.profile;
  }

  async function count(as: Caller): Promise<number> {
    return (await t.call<{ totalCount: number }>('GET', '/v1/cloudinituserdata', { as })).body.totalCount;
  }

  it('saves, lists, changes and deletes a profile, for any organization', async () => {
    const client = await t.register('ORGANIZATION_TYPE_CLIENT');
    const userData = '#cloud-config\npackages: [nginx]\n';
    const created = await t.call<{ profile: ProfileView }>('POST', '/v1/cloudinituserdata', {
      as: client,
      body: { name: 'web', userData, description: 'nginx on boot' },
    });
    expect(created.status).toBe(201);
    const profile = created.body.profile;
    expect(profile).toEqual({
      id: expect.any(String) as unknown,
      name: 'web',
      userData,
      description: 'nginx on boot',
      organizationId: client.organizationId,
      validationWarnings: [],
      createTime: expect.any(String) as unknown,
      updateTime: expect.any(String) as unknown,
    });
    expect((await t.call('GET', '/v1/cloudinituserdata', { as: client })).body).toEqual({
      profiles: [profile],
      totalCount: 1,
    });
    expect((await t.call('GET', `/v1/cloudinituserdata/${profile.id}`, { as: client })).body).toEqual({
      profile,
    });

    const patched = await t.call<{ profile: ProfileView }>('PATCH', `/v1/cloudinituserdata/${profile.id}`, {
      as: client,
      body: { description: 'changed' },
    });
    expect(patched.body.profile).toMatchObject({ name: 'web', userData, description: 'changed' });
    expect((await t.call('DELETE', `/v1/cloudinituserdata/${profile.id}`, { as: client })).status).toBe(200);
    expect((await t.call('GET', `/v1/cloudinituserdata/${profile.id}`, { as: client })).status).toBe(404);

    const provider = await t.register();
    expect((await create(provider, { name: 'p', userData })).description).toBe('');
  });

  it('saves whatever the user data says, with non-blocking warnings that name line and key', async () => {
    const client = await t.register('ORGANIZATION_TYPE_CLIENT');
    const typo = await create(client, {
      name: 'typo',
      userData: '#cloud-config\npackages: [vim]\nrun_cmd: [ls]\n',
    });
    expect(typo.validationWarnings).toEqual([
      {
        code: 'UNKNOWN_KEY',
        message: expect.stringContaining('run_cmd') as unknown,
        line: 3,
        key: 'run_cmd',
      },
    ]);
    const noHeader = await create(client, { name: 'no header', userData: 'packages: [vim]\n' });
    expect(noHeader.validationWarnings.map((w) => [w.code, w.line])).toEqual([['NOT_CLOUD_CONFIG', 1]]);
    const script = await create(client, { name: 'script', userData: '#!/bin/sh\necho hi\n' });
    expect(script.validationWarnings.map((w) => w.code)).toEqual(['NOT_CLOUD_CONFIG']);
    const broken = await create(client, { name: 'broken', userData: '#cloud-config\npackages: [vim\n' });
    expect(broken.validationWarnings[0]?.code).toBe('INVALID_YAML');
    const patched = await t.call<{ profile: ProfileView }>('PATCH', `/v1/cloudinituserdata/${typo.id}`, {
      as: client,
      body: { userData: '#cloud-config\nruncmd: [ls]\n' },
    });
    expect(patched.body.profile.validationWarnings).toEqual([]);
    expect(await count(client)).toBe(4);
  });

  it('refuses bad fields with 400 naming them and duplicate names with 409, writing nothing', async () => {
    const client = await t.register('ORGANIZATION_TYPE_CLIENT');
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '', userData: '#cloud-config\n' }, 'name'],
      [{ name: 'x', userData: '' }, 'userData'],
      [{ name: 'x' }, 'userData'],
      [{ name: 'x', userData: 'x'.repeat(64 * 1024 + 1) }, 'userData'],
      [{ name: 'x', userData: '#cloud-config\n', description: 'd'.repeat(1001) }, 'description'],
      [{ name: 'x', userData: '#cloud-config\n', validationWarnings: [] }, 'validationWarnings'],
    ];
    for (const [body, field] of cases) {
      const response = await t.call('POST', '/v1/cloudinituserdata', { as: client, body });
      expect(response.status, field).toBe(400);
      const details = response.body.details as { fieldViolations: { field: string }[] }[];
      expect(details[0]?.fieldViolations.map((v) => v.field)).toContain(field);
    }
    expect(await count(client)).toBe(0);
    await create(client, { name: 'web', userData: '#cloud-config\n' });
    const duplicate = await t.call('POST', '/v1/cloudinituserdata', {
      as: client,
      body: { name: 'web', userData: '#cloud-config\n' },
    });
    expect([duplicate.status, duplicate.body.code]).toEqual([409, 'ALREADY_EXISTS']);
    expect(await count(client)).toBe(1);
  });

  it("hides another organization's profiles: 404, never 403", async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    const stranger = await t.register('ORGANIZATION_TYPE_CLIENT');
    const profile = await create(owner, { name: 'mine', userData: '#cloud-config\n' });
    const path = `/v1/cloudinituserdata/${profile.id}`;
    expect((await t.call('GET', path, { as: stranger })).status).toBe(404);
    expect((await t.call('PATCH', path, { as: stranger, body: { name: 'x' } })).status).toBe(404);
    expect((await t.call('DELETE', path, { as: stranger })).status).toBe(404);
    expect(await count(stranger)).toBe(0);
    expect((await t.call<{ profile: ProfileView }>('GET', path, { as: owner })).body.profile).toEqual(
      profile,
    );
  });
});
