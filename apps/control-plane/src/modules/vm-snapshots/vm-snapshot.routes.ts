import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import type { SnapshotRecord } from './vm-snapshot.repository.js';
import type { VmSnapshotService } from './vm-snapshot.service.js';
import {
  RESTORE_STATUSES,
  restoreStatus,
  SNAPSHOT_OPERATION_STATUSES,
  SNAPSHOT_STATUSES,
  snapshotOperationStatus,
  snapshotStatus,
} from './vm-snapshot-status.js';

const CUSTOMER: RouteAccess = { kind: 'tenant' };
const TAGS = ['SnapshotService'];
/** Proxmox keeps a snapshot's description in the guest's config; the CRD allows this much. */
const MAX_DESCRIPTION_LENGTH = 1024;

const vmParams = z.object({ vmId: z.uuid() });
const snapshotParams = z.object({ vmId: z.uuid(), snapshotId: z.uuid() });

const snapshotView = z
  .object({
    id: z.string(),
    name: z.string().describe("The Proxmox snapshot's name."),
    snapshotId: z.string(),
    virtualMachineId: z.string(),
    createdAt: z.iso.datetime(),
    description: z.string(),
    snapshotStatus: z.enum(SNAPSHOT_STATUSES),
    restoreStatus: z.enum(RESTORE_STATUSES),
    operationStatus: z.enum(SNAPSHOT_OPERATION_STATUSES),
    lastRestore: z.iso.datetime().nullable().describe('The latest rollback served, as requested.'),
    statusMessage: z.string().describe("Why it waits or failed, in the agent's or Proxmox's own words."),
  })
  .meta({ id: 'Snapshot' });

const snapshotResponse = z.object({ snapshot: snapshotView });

function toSnapshotView(s: SnapshotRecord): z.infer<typeof snapshotView> {
  return {
    id: s.id,
    name: s.snapshotName,
    snapshotId: s.id,
    virtualMachineId: s.vmId,
    createdAt: s.createdAt.toISOString(),
    description: s.description,
    snapshotStatus: snapshotStatus(s),
    restoreStatus: restoreStatus(s),
    operationStatus: snapshotOperationStatus(s),
    lastRestore: s.observedLastRollbackAt?.toISOString() ?? null,
    statusMessage: s.dispatchError !== '' ? s.dispatchError : s.observedMessage,
  };
}

export const vmSnapshotRoutes: FastifyPluginCallbackZod<{ snapshots: VmSnapshotService }> = (
  app,
  { snapshots },
  done,
) => {
  app.get(
    '/v1/virtual-machines/:vmId/snapshots',
    {
      config: { access: CUSTOMER },
      schema: {
        tags: TAGS,
        summary: "The VM's snapshots, newest first (deleted ones too, as DELETED).",
        params: vmParams,
        querystring: pageQuery.extend({ status: z.enum(SNAPSHOT_STATUSES).optional() }),
        response: {
          200: z.object({ snapshots: z.array(snapshotView), totalCount: z.number().int() }),
        },
      },
    },
    async (request) => {
      const { status, ...page } = request.query;
      const result = await snapshots.list(
        tenantOf(request).organizationId,
        request.params.vmId,
        status,
        page,
      );
      return { snapshots: result.items.map(toSnapshotView), totalCount: result.totalCount };
    },
  );

  app.post(
    '/v1/virtual-machines/:vmId/snapshots',
    {
      config: { access: CUSTOMER, audit: 'snapshot.create' },
      schema: {
        tags: TAGS,
        summary: 'Takes a snapshot of the VM (disks and config; the Proxmox snapshot is named for you).',
        description:
          'Answers at once; the snapshot is COMPLETED when the provider has taken it. Deviation: 201 with the snapshot.',
        params: vmParams,
        body: z.strictObject({ description: z.string().max(MAX_DESCRIPTION_LENGTH).default('') }),
        response: { 201: snapshotResponse },
      },
    },
    async (request, reply) => {
      const { vmId } = request.params;
      const snapshot = await snapshots.create(
        tenantOf(request).organizationId,
        vmId,
        request.body.description,
      );
      request.auditTarget = { type: 'snapshot', id: snapshot.id };
      return reply.status(201).send({ snapshot: toSnapshotView(snapshot) });
    },
  );

  app.get(
    '/v1/virtual-machines/:vmId/snapshots/:snapshotId',
    {
      config: { access: CUSTOMER },
      schema: {
        tags: TAGS,
        summary: 'One snapshot of the VM.',
        params: snapshotParams,
        response: { 200: snapshotResponse },
      },
    },
    async (request) => {
      const { vmId, snapshotId } = request.params;
      return {
        snapshot: toSnapshotView(await snapshots.get(tenantOf(request).organizationId, vmId, snapshotId)),
      };
    },
  );

  app.delete(
    '/v1/virtual-machines/:vmId/snapshots/:snapshotId',
    {
      config: { access: CUSTOMER, audit: 'snapshot.delete' },
      schema: {
        tags: TAGS,
        summary: 'Deletes the snapshot: PROCESSING until the provider has removed it, then DELETED.',
        params: snapshotParams,
        response: { 200: snapshotResponse },
      },
    },
    async (request) => {
      const { vmId, snapshotId } = request.params;
      request.auditTarget = { type: 'snapshot', id: snapshotId };
      return {
        snapshot: toSnapshotView(await snapshots.delete(tenantOf(request).organizationId, vmId, snapshotId)),
      };
    },
  );

  app.post(
    '/v1/virtual-machines/:vmId/snapshots/:snapshotId/restore',
    {
      config: { access: CUSTOMER, audit: 'snapshot.restore' },
      schema: {
        tags: TAGS,
        summary: 'Rolls the VM back to the snapshot.',
        description:
          "Proxmox stops the guest to roll back (it is started again when the VM is wanted running): a running VM needs `stopVm: true`, else FAILED_PRECONDITION. `snapshotName`, when given, must be the snapshot's.",
        params: snapshotParams,
        body: z.strictObject({
          snapshotName: z.string().min(1).max(40).optional(),
          stopVm: z.boolean().default(false),
        }),
        response: { 200: snapshotResponse },
      },
    },
    async (request) => {
      const { vmId, snapshotId } = request.params;
      request.auditTarget = { type: 'snapshot', id: snapshotId };
      const snapshot = await snapshots.restore(
        tenantOf(request).organizationId,
        vmId,
        snapshotId,
        request.body,
      );
      return { snapshot: toSnapshotView(snapshot) };
    },
  );

  done();
};
