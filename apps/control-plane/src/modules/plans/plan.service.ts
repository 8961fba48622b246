import {
  AbortedError,
  BILLING_PERIODS,
  derivePlanCode,
  InvalidArgumentError,
  nodeComputeTypeFor,
  normalizeMoneyAmount,
  NotFoundError,
  planDefinitionViolations,
  planNodeFit,
  type FieldViolation,
  type NodeCapacity,
  type PlanDefinition,
  type Problem,
} from '@noderings/domain';

import type { Page, PageResult } from '../../http/pagination.js';
import type { Node, NodeRepository } from '../nodes/index.js';
import type { RegionRepository } from '../regions/index.js';
import type { Plan, PlanFilter, PlanRecord, PlanRepository } from './plan.repository.js';

/** A plan as a provider creates it; `code`, when given, must be the one the specs give. */
export type PlanInput = PlanDefinition & { readonly code?: string | undefined };

export type PlanChanges = { readonly [K in keyof PlanInput]?: PlanInput[K] | undefined };

/** A node a plan may be assigned to; `capacity` is there when a plan was given to check against. */
export interface AssignableNode {
  readonly node: Node;
  readonly capacity?: 'CAPACITY_FITS' | 'CAPACITY_UNKNOWN';
}

/** The fields whose change means the plan's nodes must be checked again. */
const PLACEMENT_FIELDS = [
  'computeCategory',
  'vcpus',
  'ramGb',
  'diskGb',
  'regionIds',
  'nodeIds',
] as const satisfies readonly (keyof PlanDefinition)[];

const NODE_PAGE_SIZE = 100;

export class PlanService {
  constructor(
    private readonly deps: {
      readonly plans: Pick<PlanRepository, 'list' | 'findById' | 'insert' | 'update' | 'softDelete'>;
      readonly regions: Pick<RegionRepository, 'findById'>;
      readonly nodes: Pick<NodeRepository, 'findById' | 'list'>;
    },
  ) {}

  list(organizationId: string, filter: PlanFilter, page: Page): Promise<PageResult<Plan>> {
    return this.deps.plans.list(organizationId, filter, page);
  }

  /** Deleted plans are still found (status STATUS_SOFT_DELETED): VMs sold from them refer to them. */
  async get(organizationId: string, id: string): Promise<Plan> {
    const plan = await this.deps.plans.findById(organizationId, id);
    if (plan === undefined) throw NotFoundError.of('Plan', id);
    return plan;
  }

  /** A plan that can still be changed or sold: not deleted. */
  async getActive(organizationId: string, id: string): Promise<Plan> {
    const plan = await this.get(organizationId, id);
    if (plan.deletedAt !== null) throw NotFoundError.of('Plan', id);
    return plan;
  }

  async create(organizationId: string, input: PlanInput): Promise<Plan> {
    const { code, ...given } = input;
    const plan = normalized(given);
    refuseViolations(planDefinitionViolations(plan, code));
    await this.#checkPlacement(organizationId, plan);
    const record = toRecord(plan);
    return this.deps.plans.insert(organizationId, record);
  }

  /**
   * Fields left out keep their values; a list given (prices, nodes) replaces the list. The rules are
   * checked on the plan as it would be afterwards, and a change that changes something counts a revision.
   */
  async update(organizationId: string, id: string, changes: PlanChanges): Promise<Plan> {
    const current = await this.getActive(organizationId, id);
    const { code, ...wanted } = changes;
    const currentDefinition = definitionOf(current);
    const next = normalized({ ...currentDefinition, ...definedOnly(wanted) });
    refuseViolations(planDefinitionViolations(next, code));
    if (PLACEMENT_FIELDS.some((f) => JSON.stringify(next[f]) !== JSON.stringify(currentDefinition[f])))
      await this.#checkPlacement(organizationId, next);
    if (sameDefinition(next, currentDefinition)) return current;
    const record = toRecord(next);
    const updated = await this.deps.plans.update(organizationId, id, current.revision, record);
    if (updated !== undefined) return updated;
    await this.getActive(organizationId, id);
    throw new AbortedError('The plan was changed by another request meanwhile: read it again and retry.');
  }

  /** A soft delete: VMs sold from the plan keep what they copied, and the code is free again. */
  async delete(organizationId: string, id: string): Promise<void> {
    if (!(await this.deps.plans.softDelete(organizationId, id))) throw NotFoundError.of('Plan', id);
  }

  /**
   * The organisation's nodes in a region, and with a plan, those it may run on: of its compute category,
   * and not known to be too small for one of its VMs. A node that has not reported its inventory yet is
   * listed as CAPACITY_UNKNOWN rather than left out.
   */
  async assignableNodes(
    organizationId: string,
    regionId: string,
    planId?: string,
  ): Promise<AssignableNode[]> {
    if ((await this.deps.regions.findById(organizationId, regionId)) === undefined)
      throw NotFoundError.of('Region', regionId);
    const plan = planId === undefined ? undefined : await this.getActive(organizationId, planId);
    const nodes = await this.#nodesInRegion(organizationId, regionId);
    if (plan === undefined) return nodes.map((node) => ({ node }));
    return nodes.flatMap((node): AssignableNode[] => {
      if (node.computeType !== nodeComputeTypeFor(plan.computeCategory)) return [];
      const fit = planNodeFit(plan, capacityOf(node));
      if (fit.kind === 'exceeds') return [];
      return [{ node, capacity: fit.kind === 'fits' ? 'CAPACITY_FITS' : 'CAPACITY_UNKNOWN' }];
    });
  }

  /** Regions and nodes must be the organisation's (404 otherwise); each node must suit the plan (400). */
  async #checkPlacement(organizationId: string, plan: PlanDefinition): Promise<void> {
    for (const regionId of plan.regionIds)
      if ((await this.deps.regions.findById(organizationId, regionId)) === undefined)
        throw NotFoundError.of('Region', regionId);
    const nodes = await Promise.all(plan.nodeIds.map((id) => this.deps.nodes.findById(organizationId, id)));
    const violations = nodes.flatMap((node, i): FieldViolation[] => {
      const nodeId = plan.nodeIds[i] ?? '';
      if (node === undefined) throw NotFoundError.of('Node', nodeId);
      const description = assignmentProblem(plan, node);
      return description === undefined ? [] : [{ field: `nodeIds.${i}`, description }];
    });
    refuseViolations(violations);
  }

  async #nodesInRegion(organizationId: string, regionId: string): Promise<Node[]> {
    const nodes: Node[] = [];
    for (let page = 0; ; page++) {
      const result = await this.deps.nodes.list(
        organizationId,
        { regionId },
        { page, pageSize: NODE_PAGE_SIZE },
      );
      nodes.push(...result.items);
      if (result.items.length < NODE_PAGE_SIZE || nodes.length >= result.totalCount) return nodes;
    }
  }
}

function assignmentProblem(plan: PlanDefinition, node: Node): Problem {
  if (!plan.regionIds.includes(node.regionId))
    return `is node ${node.name} in a region the plan does not sell in`;
  const wanted = nodeComputeTypeFor(plan.computeCategory);
  if (node.computeType !== wanted)
    return `is node ${node.name} of type ${node.computeType}; ${plan.computeCategory} plans run on ${wanted} nodes`;
  const fit = planNodeFit(plan, capacityOf(node));
  return fit.kind === 'exceeds' ? `is node ${node.name}, which ${fit.problem}` : undefined;
}

/** Zero (unknown) until the metrics sync has written the node's inventory. */
function capacityOf(node: Node): NodeCapacity {
  const storage = node.inventory.storagePools.find((p) => p.storageId === node.vmStorageDestination);
  return {
    cpuCores: node.inventory.cpuCores,
    memoryBytes: node.inventory.memoryBytes,
    vmStorageBytes: storage?.totalBytes ?? 0,
  };
}

/** Money in its canonical spelling, prices in billing-period order, so equal plans compare equal. */
function normalized(plan: PlanDefinition): PlanDefinition {
  return {
    ...plan,
    setupFee: normalizeMoneyAmount(plan.setupFee, 'setupFee'),
    planPrices: plan.planPrices.map((p, i) => ({
      billingPeriod: p.billingPeriod,
      currency: p.currency,
      unitAmount: normalizeMoneyAmount(p.unitAmount, `planPrices.${i}.unitAmount`),
    })),
  };
}

function sameDefinition(a: PlanDefinition, b: PlanDefinition): boolean {
  const canonical = (p: PlanDefinition) =>
    JSON.stringify({
      ...p,
      planPrices: [...p.planPrices].sort(
        (x, y) => BILLING_PERIODS.indexOf(x.billingPeriod) - BILLING_PERIODS.indexOf(y.billingPeriod),
      ),
    });
  return canonical(a) === canonical(b);
}

/** The definition an active plan (which has regions) was written from. */
function definitionOf(plan: Plan): PlanDefinition {
  return {
    name: plan.name,
    computeCategory: plan.computeCategory,
    computeType: plan.computeType,
    vcpus: plan.vcpus,
    ramGb: plan.ramGb,
    diskGb: plan.diskGb,
    bandwidthAllowanceGb: plan.bandwidthAllowanceGb,
    bandwidthPeriod: plan.bandwidthPeriod,
    networkRateLimitMbps: plan.networkRateLimitMbps,
    cpuUnits: plan.cpuUnits,
    cpuLimit: plan.cpuLimit,
    billingType: plan.billingType,
    planPrices: plan.planPrices.map((p) => ({
      billingPeriod: p.billingPeriod,
      currency: p.currency,
      unitAmount: p.unitAmount,
    })),
    setupFee: plan.setupFee,
    trialDays: plan.trialDays,
    regionIds: plan.regionIds,
    nodeIds: plan.nodeIds,
    isPublic: plan.isPublic,
    onCreditExhaustion: plan.onCreditExhaustion,
  };
}

function toRecord(plan: PlanDefinition): PlanRecord {
  const currency = plan.planPrices[0]?.currency;
  if (currency === undefined) throw new Error('a valid plan has at least one price');
  return { ...plan, code: derivePlanCode(plan), currency };
}

function definedOnly<T extends object>(values: T): { -readonly [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as {
    -readonly [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

function refuseViolations(violations: readonly FieldViolation[]): void {
  if (violations.length === 0) return;
  throw new InvalidArgumentError(
    violations.map((v) => `${v.field}: ${v.description}`).join('; '),
    violations,
  );
}
