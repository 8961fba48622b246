import type { FastifyInstance } from 'fastify';

import type { ModuleContext } from '../module.js';
import { OrderRefusalRepository } from './order-refusal.repository.js';
import { orderRefusalRoutes } from './order-refusal.routes.js';

/** Orders refused before a VM existed, as their provider reads them. */
export async function registerOrderRefusalModule(
  app: FastifyInstance,
  { db }: ModuleContext,
): Promise<{ readonly refusals: OrderRefusalRepository }> {
  const refusals = new OrderRefusalRepository(db);
  await app.register(orderRefusalRoutes, { refusals });
  return { refusals };
}
