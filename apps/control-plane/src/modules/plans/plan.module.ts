import type { FastifyInstance } from 'fastify';

import type { AddonService } from '../addons/index.js';
import type { ModuleContext } from '../module.js';
import type { NodeRepository } from '../nodes/index.js';
import type { RegionRepository } from '../regions/index.js';
import { PlanCalculator } from './plan-calculator.service.js';
import { PlanRepository } from './plan.repository.js';
import { planRoutes } from './plan.routes.js';
import { PlanService } from './plan.service.js';

export interface PlanModuleDeps extends ModuleContext {
  readonly regions: RegionRepository;
  readonly nodeRecords: NodeRepository;
  readonly addons: AddonService;
}

/** Providers' plans, and the price calculator that adds addons to them. */
export async function registerPlanModule(app: FastifyInstance, deps: PlanModuleDeps): Promise<void> {
  const plans = new PlanService({
    plans: new PlanRepository(deps.db),
    regions: deps.regions,
    nodes: deps.nodeRecords,
  });
  await app.register(planRoutes, { plans, calculator: new PlanCalculator({ plans, addons: deps.addons }) });
}
