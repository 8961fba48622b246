import type { Caller, TestControlPlane } from '../../control-plane.test-support.js';
import { createRegion, insertPlatform, requiredNodeFields } from '../nodes/node.test-support.js';

const GIB = 1024 ** 3;

/** A provider with a region and a shared node in it, ready to sell plans. */
export interface PlanSetup {
  readonly provider: Caller & { organizationId: string };
  readonly platformId: string;
  readonly regionId: string;
  readonly nodeId: string;
}

export async function createNode(
  t: TestControlPlane,
  setup: Pick<PlanSetup, 'provider' | 'platformId'>,
  regionId: string,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const response = await t.call<{ node: { id: string } }>('POST', '/v1/node', {
    as: setup.provider,
    body: { ...requiredNodeFields(setup.platformId, regionId, name), ...extra },
  });
  if (response.status !== 201) throw new Error(`node create failed: ${JSON.stringify(response.body)}`);
  return response.body.node.id;
}

export async function setUpPlans(t: TestControlPlane): Promise<PlanSetup> {
  const provider = await t.register();
  const platformId = await insertPlatform(t, provider.organizationId);
  const regionId = await createRegion(t, provider);
  const nodeId = await createNode(t, { provider, platformId }, regionId, 'pve1');
  return { provider, platformId, regionId, nodeId };
}

/** What the metrics sync writes: here straight into the database. */
export async function reportInventory(
  t: TestControlPlane,
  nodeId: string,
  inventory: { cpuCores: number; memoryGib: number; storageGib: number; storageId?: string },
): Promise<void> {
  await t.cp.db
    .updateTable('nodes')
    .set({
      inventory: JSON.stringify({
        cpuCores: inventory.cpuCores,
        cpuCoresAllocated: 0,
        memoryBytes: inventory.memoryGib * GIB,
        memoryAllocatedBytes: 0,
        storagePools: [
          {
            storageId: inventory.storageId ?? 'local-lvm',
            totalBytes: inventory.storageGib * GIB,
            allocatedBytes: 0,
          },
        ],
      }),
    })
    .where('id', '=', nodeId)
    .execute();
}

/** A valid create body: SC-GC-2C-4G-40 at 5 EUR a month. */
export function planBody(
  regionId: string,
  nodeIds: readonly string[],
  overrides: Record<string, unknown> = {},
) {
  return {
    name: 'Small',
    computeType: 'COMPUTE_TYPE_GENERAL_COMPUTE',
    vcpus: 2,
    ramGb: 4,
    diskGb: 40,
    planPrices: [{ billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount: '5' }],
    regionId,
    nodeIds,
    ...overrides,
  };
}

export async function createPlan(
  t: TestControlPlane,
  setup: PlanSetup,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const response = await t.call<{ plan: { id: string } }>('POST', '/v1/plans', {
    as: setup.provider,
    body: planBody(setup.regionId, [setup.nodeId], overrides),
  });
  if (response.status !== 201) throw new Error(`plan create failed: ${JSON.stringify(response.body)}`);
  return response.body.plan.id;
}

export async function countRows(t: TestControlPlane, table: 'plans' | 'addons'): Promise<number> {
  const row = await t.cp.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The field paths of a 400 answer. */
export function fieldsOf(body: unknown): string[] {
  const details = (body as { details?: { fieldViolations?: { field: string }[] }[] }).details ?? [];
  return details.flatMap((d) => d.fieldViolations?.map((v) => v.field) ?? []);
}
