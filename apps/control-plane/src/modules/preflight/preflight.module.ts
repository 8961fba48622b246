import type { FastifyInstance } from 'fastify';

import type { CloudInitCompileService } from '../cloud-init-templates/index.js';
import type { NetworkAvailabilityRepository } from '../ipam/index.js';
import { worker, type ModuleContext, type Signal, type Worker } from '../module.js';
import type { CandidateNodeRepository } from '../placement/index.js';
import type { ProxmoxInventoryRepository } from '../proxmox-inventory/index.js';
import { installPreflightTriggers } from './preflight-triggers.js';
import { PreflightRepository } from './preflight.repository.js';
import { preflightRoutes } from './preflight.routes.js';
import { PreflightService } from './preflight.service.js';
import { PreflightWorker } from './preflight.worker.js';

export interface PreflightModuleDeps extends ModuleContext {
  readonly candidates: CandidateNodeRepository;
  readonly availability: NetworkAvailabilityRepository;
  readonly compiler: CloudInitCompileService;
  readonly inventories: ProxmoxInventoryRepository;
  /** How often every plan is re-evaluated besides after changes; 0 turns that off. */
  readonly intervalSeconds: number;
  /** Other modules' word that an organisation's capacity or inventory changed: it is re-evaluated. */
  readonly requests: Signal<[organizationId: string]>;
}

/** Whether each plan can be sold: re-evaluated after every change through the API and on a timer. */
export async function registerPreflightModule(
  app: FastifyInstance,
  deps: PreflightModuleDeps,
): Promise<{ readonly workers: readonly Worker[] }> {
  const results = new PreflightRepository(deps.db);
  const preflight = new PreflightService({
    results,
    nodes: deps.candidates,
    networks: deps.availability,
    cloudInit: deps.compiler,
    inventories: deps.inventories,
  });
  const evaluations = new PreflightWorker({
    preflight,
    results,
    intervalSeconds: deps.intervalSeconds,
    logger: app.log,
  });
  deps.requests.receive((organizationId) => {
    evaluations.request(organizationId);
  });
  installPreflightTriggers(app, evaluations);
  await app.register(preflightRoutes, { preflight, worker: evaluations });
  return { workers: [worker('preflight', evaluations)] };
}
