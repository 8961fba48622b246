import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import type { BackupRecord } from './vm-backup.repository.js';
import type { VmBackupService } from './vm-backup.service.js';
import {
  BACKUP_OPERATION_STATUSES,
  BACKUP_STATUSES,
  backupOperationStatus,
  backupRestoreStatus,
  backupStatus,
  RESTORE_STATUSES,
} from './vm-backup-status.js';

const CUSTOMER: RouteAccess = { kind: 'tenant' };
const TAGS = ['BackupService'];

const vmParams = z.object({ vmId: z.uuid() });
const backupParams = z.object({ vmId: z.uuid(), backupId: z.uuid() });

const backupView = z
  .object({
    id: z.string(),
    name: z.string().describe("The backup's name in the provider's cluster (the VM and the UTC slot)."),
    backupId: z.string(),
    virtualMachineId: z.string(),
    addonId: z.string().nullable().describe('The backup addon whose schedule made it.'),
    createdAt: z.iso.datetime(),
    sizeBytes: z.number().int(),
    backupStatus: z.enum(BACKUP_STATUSES),
    restoreStatus: z.enum(RESTORE_STATUSES),
    restoredAt: z.iso.datetime().nullable(),
    operationStatus: z.enum(BACKUP_OPERATION_STATUSES),
    statusMessage: z.string().describe("Why it waits or failed, in the agent's or Proxmox's own words."),
  })
  .meta({ id: 'Backup' });

const backupResponse = z.object({ backup: backupView });

function toBackupView(b: BackupRecord): z.infer<typeof backupView> {
  return {
    id: b.id,
    name: b.objectName,
    backupId: b.id,
    virtualMachineId: b.vmId,
    addonId: b.addonId,
    createdAt: b.createdAt.toISOString(),
    sizeBytes: b.sizeBytes,
    backupStatus: backupStatus(b),
    restoreStatus: backupRestoreStatus(b),
    restoredAt: b.restoredAt?.toISOString() ?? null,
    operationStatus: backupOperationStatus(b),
    statusMessage: statusMessage(b),
  };
}

function statusMessage(b: BackupRecord): string {
  if (b.dispatchError !== '') return b.dispatchError;
  if (b.observedRestoreMessage !== '' && backupRestoreStatus(b) !== 'RESTORE_STATUS_NONE')
    return b.observedRestoreMessage;
  return b.observedMessage;
}

export const vmBackupRoutes: FastifyPluginCallbackZod<{ backups: VmBackupService }> = (
  app,
  { backups },
  done,
) => {
  app.get(
    '/v1/virtual-machines/:vmId/backups',
    {
      config: { access: CUSTOMER },
      schema: {
        tags: TAGS,
        summary: "The VM's backups, newest first (deleted and expired ones too).",
        description:
          "There is no create: backups are made on the schedule of the VM's backup addon (`:enable-backup`), and the oldest beyond its retention expire.",
        params: vmParams,
        querystring: pageQuery.extend({ status: z.enum(BACKUP_STATUSES).optional() }),
        response: { 200: z.object({ backups: z.array(backupView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const { status, ...page } = request.query;
      const result = await backups.list(tenantOf(request).organizationId, request.params.vmId, status, page);
      return { backups: result.items.map(toBackupView), totalCount: result.totalCount };
    },
  );

  app.get(
    '/v1/virtual-machines/:vmId/backups/:backupId',
    {
      config: { access: CUSTOMER },
      schema: {
        tags: TAGS,
        summary: 'One backup of the VM.',
        params: backupParams,
        response: { 200: backupResponse },
      },
    },
    async (request) => {
      const { vmId, backupId } = request.params;
      return { backup: toBackupView(await backups.get(tenantOf(request).organizationId, vmId, backupId)) };
    },
  );

  app.delete(
    '/v1/virtual-machines/:vmId/backups/:backupId',
    {
      config: { access: CUSTOMER, audit: 'backup.delete' },
      schema: {
        tags: TAGS,
        summary: 'Deletes the backup and its archive: PROCESSING until the provider has, then DELETED.',
        params: backupParams,
        response: { 200: backupResponse },
      },
    },
    async (request) => {
      const { vmId, backupId } = request.params;
      request.auditTarget = { type: 'backup', id: backupId };
      return { backup: toBackupView(await backups.delete(tenantOf(request).organizationId, vmId, backupId)) };
    },
  );

  app.post(
    '/v1/virtual-machines/:vmId/backups/:backupId/restore',
    {
      config: { access: CUSTOMER, audit: 'backup.restore' },
      schema: {
        tags: TAGS,
        summary: 'Restores the VM from the backup, over its current disks (the VM is stopped first).',
        params: backupParams,
        body: z.strictObject({
          startAfterRestore: z.boolean().default(true).describe('Start the VM once restored.'),
        }),
        response: { 200: backupResponse },
      },
    },
    async (request) => {
      const { vmId, backupId } = request.params;
      request.auditTarget = { type: 'backup', id: backupId };
      const backup = await backups.restore(
        tenantOf(request).organizationId,
        vmId,
        backupId,
        request.body.startAfterRestore,
      );
      return { backup: toBackupView(backup) };
    },
  );

  done();
};
