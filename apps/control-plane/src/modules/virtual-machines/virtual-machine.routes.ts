import { DISTROS, findCity, hostnameProblem } from '@noderings/domain';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import { ruled } from '../../http/ruled-schema.js';
import { verbRoute } from '../../http/verb-route.js';
import { latestPowerReport } from './power-report.js';
import type { VirtualMachineRecord } from './virtual-machine.repository.js';
import type { VirtualMachineService } from './virtual-machine.service.js';

const CUSTOMER: RouteAccess = { kind: 'tenant' };
const PROVIDER: RouteAccess = { kind: 'tenant', organizationType: 'ORGANIZATION_TYPE_PROVIDER' };
const TAGS = ['VirtualMachineService'];
const MAX_TAGS = 20;
const MAX_USER_DATA_BYTES = 64 * 1024;

const tag = z
  .string()
  .regex(
    /^[a-z0-9]([a-z0-9._-]{0,61}[a-z0-9])?$/,
    'must be 1-63 lower-case letters, digits, ".", "_" or "-"',
  );

const accessFields = ['sshKeyIds', 'password', 'userData', 'cloudInitUserDataId'] as const;

/** How the customer gets into the VM: exactly one of these. */
const accessShape = {
  sshKeyIds: z.array(z.uuid()).min(1).max(20).optional().describe('Your SSH keys to authorise.'),
  password: z
    .string()
    .min(12)
    .max(128)
    .optional()
    .describe('Kept only as a SHA-512-crypt hash inside the cloud-init data.'),
  userData: z
    .string()
    .max(MAX_USER_DATA_BYTES)
    .optional()
    .describe("Your own cloud-init user data, used as it is instead of the provider's."),
  cloudInitUserDataId: z.uuid().optional().describe('One of your saved cloud-init user data profiles.'),
};
function hasExactlyOneAccess(b: Partial<Record<(typeof accessFields)[number], unknown>>): boolean {
  return accessFields.filter((f) => b[f] !== undefined).length === 1;
}
const ONE_ACCESS = {
  error: 'give exactly one of sshKeyIds, password, userData or cloudInitUserDataId',
  path: ['sshKeyIds'],
};

const hostname = ruled(z.string().max(253), hostnameProblem);

const orderBody = z
  .strictObject({
    hostname,
    planId: z.uuid().describe('The offer (marketplace plan) to buy; it fixes the provider and the region.'),
    regionId: z.uuid().describe("The plan's region."),
    distro: z.enum(DISTROS),
    ...accessShape,
    tags: z.array(tag).max(MAX_TAGS).default([]),
    idempotencyKey: z
      .string()
      .min(1)
      .max(100)
      .describe('Your id for this order: sending it again answers the same VM instead of a second one.'),
  })
  .refine(hasExactlyOneAccess, ONE_ACCESS);

const reinstallBody = z
  .strictObject({
    distro: z
      .enum(DISTROS)
      .optional()
      .describe('Another distro with a template on the VM’s node; the same when left out.'),
    hostname: hostname.optional(),
    ...accessShape,
  })
  .refine(hasExactlyOneAccess, ONE_ACCESS);

const tagsBody = z.strictObject({
  addTags: z.array(tag).max(MAX_TAGS).default([]),
  removeTags: z.array(tag).max(MAX_TAGS).default([]),
});

const PROVISIONING_STATES = [
  'PENDING',
  'WAITING_FOR_AGENT',
  'PROVISIONING',
  'RUNNING',
  'STOPPED',
  'FAILED',
  'DELETING',
  'DELETED',
] as const;
type ProvisioningState = (typeof PROVISIONING_STATES)[number];

const OPERATION_STATUSES = [
  'OPERATION_STATUS_CREATED',
  'OPERATION_STATUS_STARTED',
  'OPERATION_STATUS_STOPPED',
  'OPERATION_STATUS_DELETED',
] as const;

export const vmView = z
  .object({
    id: z.string(),
    hostname: z.string(),
    distro: z.string(),
    tags: z.array(z.string()),
    operationStatus: z.enum(OPERATION_STATUSES),
    provisioningState: z
      .enum(PROVISIONING_STATES)
      .describe('Where the VM is on its way: WAITING_FOR_AGENT while the agent cluster cannot be reached.'),
    statusMessage: z
      .string()
      .describe(
        "Why the VM waits or failed. Customers get a plain sentence for a failure; providers, the agent's or Proxmox's own words.",
      ),
    powerState: z
      .enum(['POWER_STATE_RUNNING', 'POWER_STATE_STOPPED', 'POWER_STATE_UNKNOWN'])
      .describe(
        "The guest's power as the hypervisor last reported it: the operator's reading after each power action or the agent's metrics, whichever is newer (UNKNOWN before any report).",
      ),
    powerStateTime: z.iso.datetime().nullable().describe('When that report was made.'),
    cpu: z.number().int(),
    memory: z.number().int().describe('MiB.'),
    storage: z.number().int().describe('GiB.'),
    providerName: z.string(),
    regionCountry: z.string(),
    regionCity: z.string(),
    ipv4: z.string().nullable(),
    ipv6: z.string().nullable(),
    planCode: z.string(),
    planBillingType: z.string(),
    createTime: z.iso.datetime(),
  })
  .meta({ id: 'VirtualMachine' });

const providerVmView = vmView
  .extend({
    clientOrganizationId: z.string(),
    planId: z.string(),
    nodeId: z.string().nullable(),
    vmid: z.number().int(),
    macAddress: z.string(),
    failureDetail: z
      .string()
      .describe("Why the order failed, in the agent's or Proxmox's words; empty unless it failed."),
  })
  .meta({ id: 'ProviderVirtualMachine' });

/** What a customer reads of a failed order: Proxmox's words name the provider's nodes and templates. */
const CUSTOMER_FAILURE_MESSAGE =
  'The provider could not create this VM. Delete it and order again; the provider has been told why.';

/** What a customer reads while an order that failed on its node is placed on another. */
const CUSTOMER_RETRY_MESSAGE =
  'The first attempt to create this VM failed; the provider is creating it again.';

const vmResponse = z.object({ virtualMachine: vmView });

/** The order failed on its node and waits to be placed on another: still being provisioned. */
function isPlacedAgain(vm: VirtualMachineRecord): boolean {
  return (
    vm.desiredState === 'PRESENT' &&
    vm.failedAt === undefined &&
    vm.nodeId !== null &&
    vm.failedNodeIds.includes(vm.nodeId)
  );
}

function provisioningState(vm: VirtualMachineRecord): ProvisioningState {
  if (vm.failedAt !== undefined) return 'FAILED';
  if (vm.deletedAt !== undefined) return 'DELETED';
  if (vm.desiredState === 'ABSENT') return 'DELETING';
  if (isPlacedAgain(vm)) return 'PROVISIONING';
  if (vm.observedPhase === 'Failed') return 'FAILED';
  if (vm.observedPhase === 'Running') return 'RUNNING';
  if (vm.observedPhase === 'Stopped') return 'STOPPED';
  if (vm.dispatchedGeneration === 0) return vm.dispatchError === '' ? 'PENDING' : 'WAITING_FOR_AGENT';
  return 'PROVISIONING';
}

function operationStatus(state: ProvisioningState): (typeof OPERATION_STATUSES)[number] {
  if (state === 'RUNNING') return 'OPERATION_STATUS_STARTED';
  if (state === 'STOPPED') return 'OPERATION_STATUS_STOPPED';
  if (state === 'DELETING' || state === 'DELETED') return 'OPERATION_STATUS_DELETED';
  return 'OPERATION_STATUS_CREATED';
}

function numberIn(spec: Readonly<Record<string, unknown>>, ...path: string[]): number {
  let value: unknown = spec;
  for (const key of path)
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof value === 'number' ? value : 0;
}

/** The provider's own account of where the VM is: the dispatcher's or the cluster's words. */
function detailedMessage(vm: VirtualMachineRecord): string {
  return vm.dispatchError !== '' ? vm.dispatchError : vm.observedMessage;
}

function failureDetailOf(vm: VirtualMachineRecord): string {
  if (vm.failureDetail !== '') return vm.failureDetail;
  return provisioningState(vm) === 'FAILED' ? vm.observedMessage : '';
}

export function toVmView(vm: VirtualMachineRecord): z.infer<typeof vmView> {
  const state = provisioningState(vm);
  const power = latestPowerReport(vm);
  const city = vm.regionCityId === null ? undefined : findCity(vm.regionCityId);
  return {
    id: vm.id,
    hostname: vm.hostname,
    distro: vm.distro,
    tags: [...vm.tags],
    operationStatus: operationStatus(state),
    provisioningState: state,
    statusMessage:
      state === 'FAILED'
        ? CUSTOMER_FAILURE_MESSAGE
        : isPlacedAgain(vm)
          ? CUSTOMER_RETRY_MESSAGE
          : detailedMessage(vm),
    powerState:
      power === undefined
        ? 'POWER_STATE_UNKNOWN'
        : power.state === 'Running'
          ? 'POWER_STATE_RUNNING'
          : 'POWER_STATE_STOPPED',
    powerStateTime: power?.at.toISOString() ?? null,
    cpu: numberIn(vm.spec, 'cpu', 'cores'),
    memory: numberIn(vm.spec, 'memoryMiB'),
    storage: numberIn(vm.spec, 'disk', 'sizeGiB'),
    providerName: vm.providerName,
    regionCountry: city?.country ?? '',
    regionCity: city?.name ?? '',
    ipv4: vm.ipv4 ?? null,
    ipv6: vm.ipv6 ?? null,
    planCode: vm.planCode,
    planBillingType: vm.planBillingType,
    createTime: vm.createdAt.toISOString(),
  };
}

function toProviderVmView(vm: VirtualMachineRecord): z.infer<typeof providerVmView> {
  const network = vm.spec.network as { mac?: unknown } | undefined;
  return {
    ...toVmView(vm),
    clientOrganizationId: vm.clientOrganizationId,
    planId: vm.planId,
    nodeId: vm.nodeId,
    vmid: numberIn(vm.spec, 'vmid'),
    macAddress: typeof network?.mac === 'string' ? network.mac : '',
    statusMessage: detailedMessage(vm),
    failureDetail: failureDetailOf(vm),
  };
}

export const virtualMachineRoutes: FastifyPluginCallbackZod<{
  vms: VirtualMachineService;
  now: () => Date;
}> = (app, { vms, now }, done) => {
  app.post(
    '/v1/virtual-machines',
    {
      config: { access: CUSTOMER, audit: 'virtual-machine.create' },
      schema: {
        tags: TAGS,
        summary: 'Orders a VM: places it, takes its addresses, MAC and VMID, and sends it to the provider.',
        description:
          'Only plans the marketplace lists can be ordered; any other planId is NOT_FOUND. Idempotent by idempotencyKey: the same order again answers 200 with the VM it made; the key with a different order is ALREADY_EXISTS. Deviation: answers the VM, not a bare Success.',
        body: orderBody,
        response: { 200: vmResponse, 201: vmResponse },
      },
    },
    async (request, reply) => {
      const { vm, created } = await vms.order(tenantOf(request).organizationId, request.body);
      request.auditTarget = { type: 'virtual-machine', id: vm.id };
      return reply.status(created ? 201 : 200).send({ virtualMachine: toVmView(vm) });
    },
  );

  app.get(
    '/v1/virtual-machines',
    {
      config: { access: CUSTOMER },
      schema: {
        tags: TAGS,
        summary: 'The VMs your organisation ordered, newest first.',
        querystring: pageQuery,
        response: { 200: z.object({ virtualMachines: z.array(vmView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const result = await vms.list(
        { clientOrganizationId: tenantOf(request).organizationId },
        {},
        request.query,
      );
      return { virtualMachines: result.items.map(toVmView), totalCount: result.totalCount };
    },
  );

  app.get(
    '/v1/virtual-machines/:id',
    {
      config: { access: CUSTOMER },
      schema: { tags: TAGS, summary: 'One of your VMs.', params: idParams, response: { 200: vmResponse } },
    },
    async (request) => ({
      virtualMachine: toVmView(
        await vms.get({ clientOrganizationId: tenantOf(request).organizationId }, request.params.id),
      ),
    }),
  );

  app.patch(
    '/v1/virtual-machines/:id',
    {
      config: { access: CUSTOMER, audit: 'virtual-machine.update' },
      schema: {
        tags: TAGS,
        summary: 'Adds and removes tags, the only thing of a VM that is edited.',
        params: idParams,
        body: tagsBody,
        response: { 200: vmResponse },
      },
    },
    async (request) => {
      const vm = await vms.updateTags(
        tenantOf(request).organizationId,
        request.params.id,
        request.body.addTags,
        request.body.removeTags,
      );
      return { virtualMachine: toVmView(vm) };
    },
  );

  app.delete(
    '/v1/virtual-machines/:id',
    {
      config: { access: CUSTOMER, audit: 'virtual-machine.delete' },
      schema: {
        tags: TAGS,
        summary:
          'Deletes a VM: DELETING until the provider reports it gone, then its addresses are released.',
        params: idParams,
        response: { 200: vmResponse },
      },
    },
    async (request) => ({
      virtualMachine: toVmView(await vms.delete(tenantOf(request).organizationId, request.params.id)),
    }),
  );

  const actions = [
    ['start', 'Starts the VM.', (org: string, id: string) => vms.start(org, id)],
    ['stop', 'Stops the VM.', (org: string, id: string) => vms.stop(org, id)],
    [
      'restart',
      'Reboots the VM (starts it when stopped).',
      (org: string, id: string) => vms.restart(org, id, now()),
    ],
  ] as const;
  for (const [verb, summary, act] of actions)
    app.post(
      verbRoute('/v1/virtual-machines/:id', verb),
      {
        config: { access: CUSTOMER, audit: `virtual-machine.${verb}` },
        schema: {
          tags: TAGS,
          summary,
          params: idParams,
          body: z.strictObject({}).optional(),
          response: { 200: vmResponse },
        },
      },
      async (request) => ({
        virtualMachine: toVmView(await act(tenantOf(request).organizationId, request.params.id)),
      }),
    );

  app.post(
    verbRoute('/v1/virtual-machines/:id', 'reinstall'),
    {
      config: { access: CUSTOMER, audit: 'virtual-machine.reinstall' },
      schema: {
        tags: TAGS,
        summary: 'Reinstalls the VM: a new guest from the template, with the same VMID, MAC and addresses.',
        description: 'Everything on the old disk is lost. The cloud-init data is compiled again.',
        params: idParams,
        body: reinstallBody,
        response: { 200: vmResponse },
      },
    },
    async (request) => ({
      virtualMachine: toVmView(
        await vms.reinstall(tenantOf(request).organizationId, request.params.id, request.body),
      ),
    }),
  );

  app.get(
    '/v1/provider/virtual-machines',
    {
      config: { access: PROVIDER },
      schema: {
        tags: ['ProviderCustomerService'],
        summary: 'The VMs on your infrastructure, newest first (no customer secrets).',
        querystring: pageQuery,
        response: {
          200: z.object({ virtualMachines: z.array(providerVmView), totalCount: z.number().int() }),
        },
      },
    },
    async (request) => {
      const result = await vms.list(
        { providerOrganizationId: tenantOf(request).organizationId },
        {},
        request.query,
      );
      return { virtualMachines: result.items.map(toProviderVmView), totalCount: result.totalCount };
    },
  );

  app.get(
    '/v1/provider/virtual-machines/:id',
    {
      config: { access: PROVIDER },
      schema: {
        tags: ['ProviderCustomerService'],
        summary: 'One VM on your infrastructure.',
        params: idParams,
        response: { 200: z.object({ virtualMachine: providerVmView }) },
      },
    },
    async (request) => ({
      virtualMachine: toProviderVmView(
        await vms.get({ providerOrganizationId: tenantOf(request).organizationId }, request.params.id),
      ),
    }),
  );

  done();
};
