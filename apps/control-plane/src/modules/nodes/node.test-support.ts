import { randomUUID } from 'node:crypto';

import type { Caller, TestControlPlane } from '../../control-plane.test-support.js';

/**
 * A platform written straight into the database: the node tests need one to hang nodes on, not the
 * platforms module's rules (agents, endpoint checks).
 */
export async function insertPlatform(t: TestControlPlane, organizationId: string): Promise<string> {
  const row = await t.cp.db
    .insertInto('platforms')
    .values({
      organization_id: organizationId,
      name: `platform ${randomUUID()}`,
      endpoint_url: `https://${randomUUID()}.pve.test:8006`,
      driver: 'PLATFORM_DRIVER_PROXMOX',
      agent_id: null,
      service_status: 'SERVICE_STATUS_OFFLINE',
      updated_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function createRegion(
  t: TestControlPlane,
  provider: Caller,
  cityCountryId = 'de-fra',
): Promise<string> {
  const response = await t.call<{ id: string }>('POST', '/v1/regions', {
    as: provider,
    body: { cityCountryId, datacenterId: 'own-facility' },
  });
  if (response.status !== 201) throw new Error(`region create failed: ${JSON.stringify(response.body)}`);
  return response.body.id;
}

/** The fields a node cannot be created without. */
export function requiredNodeFields(platformId: string, regionId: string, name = 'pve1') {
  return {
    name,
    platformId,
    regionId,
    vmStorageDestination: 'local-lvm',
    backupStorageDestination: 'local',
    backupStorageCompression: 'BACKUP_STORAGE_COMPRESSION_ZSTD',
    vmidSeed: 1000,
  };
}
