import type { FastifyInstance } from 'fastify';

import type { ModuleContext } from '../module.js';
import type { CandidateNodeRepository } from '../placement/index.js';
import { MarketplaceRepository } from './marketplace.repository.js';
import { marketplaceRoutes } from './marketplace.routes.js';
import { MarketplaceService } from './marketplace.service.js';

/** The plans on sale, as customers compare them; the offers an order is checked against. */
export async function registerMarketplaceModule(
  app: FastifyInstance,
  { db, candidates }: ModuleContext & { readonly candidates: CandidateNodeRepository },
): Promise<{ readonly offers: MarketplaceRepository }> {
  const offers = new MarketplaceRepository(db);
  await app.register(marketplaceRoutes, {
    marketplace: new MarketplaceService({ marketplace: offers, nodes: candidates }),
  });
  return { offers };
}
