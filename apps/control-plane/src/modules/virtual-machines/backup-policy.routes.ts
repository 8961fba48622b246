import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams } from '../../http/id-params.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import { verbRoute } from '../../http/verb-route.js';
import { wireEnum } from '../../http/wire-enum.js';
import type { VmBackupPolicy, VmBackupPolicyService } from './backup-policy.service.js';
import { toVmView, vmView } from './virtual-machine.routes.js';

const CUSTOMER: RouteAccess = { kind: 'tenant' };
const TAGS = ['VirtualMachineService'];

/** The same values as the node's `backupStorageCompression`, which the policy copies. */
const compression = wireEnum({
  none: 'BACKUP_STORAGE_COMPRESSION_NONE',
  lzo: 'BACKUP_STORAGE_COMPRESSION_LZO',
  gzip: 'BACKUP_STORAGE_COMPRESSION_GZIP',
  zstd: 'BACKUP_STORAGE_COMPRESSION_ZSTD',
});

const backupPolicyView = z
  .object({
    addonId: z.string(),
    schedule: z.string().describe("Five-field cron (UTC), the addon's."),
    retention: z.number().int().describe('How many scheduled backups are kept.'),
    storage: z.string().describe("The node's backup storage."),
    compression: compression.schema,
  })
  .meta({ id: 'VmBackupPolicy' });

function toBackupPolicyView(p: VmBackupPolicy): z.infer<typeof backupPolicyView> {
  return {
    addonId: p.addonId,
    schedule: p.schedule,
    retention: p.retention,
    storage: p.storage,
    compression: compression.toWire(p.compression),
  };
}

export const backupPolicyRoutes: FastifyPluginCallbackZod<{ policies: VmBackupPolicyService }> = (
  app,
  { policies },
  done,
) => {
  app.post(
    verbRoute('/v1/virtual-machines/:id', 'enable-backup'),
    {
      config: { access: CUSTOMER, audit: 'virtual-machine.enable-backup' },
      schema: {
        tags: TAGS,
        summary: 'Backs the VM up on the schedule of a backup addon of its provider.',
        description:
          "The addon must be a live ADDON_TYPE_BACKUP addon offered with the VM's plan; its schedule and retention, and the node's backup storage and compression as they are now, become the VM's policy (enabling again replaces it). Deviation: answers the VM and its policy.",
        params: idParams,
        body: z.strictObject({ addonId: z.uuid() }),
        response: { 200: z.object({ virtualMachine: vmView, backupPolicy: backupPolicyView }) },
      },
    },
    async (request) => {
      const { vm, policy } = await policies.enable(
        tenantOf(request).organizationId,
        request.params.id,
        request.body.addonId,
      );
      return { virtualMachine: toVmView(vm), backupPolicy: toBackupPolicyView(policy) };
    },
  );

  app.post(
    verbRoute('/v1/virtual-machines/:id', 'disable-backup'),
    {
      config: { access: CUSTOMER, audit: 'virtual-machine.disable-backup' },
      schema: {
        tags: TAGS,
        summary: "Stops the VM's scheduled backups.",
        description:
          'The backups already made stay (restorable and deletable; they go with the VM) unless cancelImmediately, which deletes them now too. Deviation: answers the VM.',
        params: idParams,
        body: z.strictObject({ addonId: z.uuid(), cancelImmediately: z.boolean().default(false) }),
        response: { 200: z.object({ virtualMachine: vmView }) },
      },
    },
    async (request) => {
      const vm = await policies.disable(
        tenantOf(request).organizationId,
        request.params.id,
        request.body.addonId,
        request.body.cancelImmediately,
      );
      return { virtualMachine: toVmView(vm) };
    },
  );

  done();
};
