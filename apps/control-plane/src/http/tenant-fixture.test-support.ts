import { generateKeyPairSync } from 'node:crypto';

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
    readonly secret: string;
    readonly environmentVariable: string;
    readonly sshKey: string;
    readonly serviceAccount: string;
    readonly serviceAccountToken: string;
  };
}

export const SECRET_VALUE = 'the-secret-value-7f3a9c';

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
      hypervisorDriver: 'proxmox',
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
  const secret = idOf(await create('/v1/secrets', { key: 'API_KEY', value: SECRET_VALUE }));
  const environmentVariable = idOf(
    await create('/v1/environment-variables', { key: 'REGION', value: 'eu-central' }),
  );
  const sshKey = idOf(await create('/v1/ssh-keys', { name: 'laptop', publicKey: newSshPublicKey() }));
  const serviceAccount = idOf(await create('/v1/service-accounts', { name: 'ci' }));
  const minted = await create(`/v1/service-accounts/${serviceAccount}/tokens`, { name: 'pipeline' });
  const limited = idOf(
    await create('/v1/service-accounts', { name: 'office-only', allowedIps: ['10.0.0.0/8'], role: 'admin' }),
  );
  const limitedToken = await create(`/v1/service-accounts/${limited}/tokens`, { name: 'office' });

  const memberUser = await t.register('ORGANIZATION_TYPE_CLIENT');
  await create('/v1/organization/members', { email: memberUser.email, role: 'member' });
  return {
    owner,
    member: { token: memberUser.token, organizationId: owner.organizationId, userId: memberUser.userId },
    ipLimited: { token: String(limitedToken.token) },
    ids: {
      region,
      agent,
      platform,
      node,
      secret,
      environmentVariable,
      sshKey,
      serviceAccount,
      serviceAccountToken: String(minted.tokenId),
    },
  };
}
