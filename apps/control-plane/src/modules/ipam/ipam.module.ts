import type { FastifyInstance } from 'fastify';

import type { ModuleContext } from '../module.js';
import { AllocationRepository } from './allocation.repository.js';
import { allocationRoutes } from './allocation.routes.js';
import { IpAllocationService } from './allocation.service.js';
import { NetworkAvailabilityRepository } from './network-availability.repository.js';
import { NetworkRepository } from './network.repository.js';
import { networkRoutes } from './network.routes.js';
import { NetworkService } from './network.service.js';
import { PrefixRepository } from './prefix.repository.js';
import { prefixRoutes } from './prefix.routes.js';
import { PrefixService } from './prefix.service.js';

/** IP address management: providers' networks, their prefixes, and the addresses allocated from them. */
export async function registerIpamModule(
  app: FastifyInstance,
  { db }: ModuleContext,
): Promise<{
  /** Takes and releases addresses for VM orders. */
  readonly addresses: IpAllocationService;
  /** How many addresses each network has left, for preflight. */
  readonly availability: NetworkAvailabilityRepository;
}> {
  const addresses = new IpAllocationService({ allocations: new AllocationRepository(db) });
  await app.register(networkRoutes, {
    networks: new NetworkService({ networks: new NetworkRepository(db) }),
  });
  await app.register(prefixRoutes, { prefixes: new PrefixService({ prefixes: new PrefixRepository(db) }) });
  await app.register(allocationRoutes, { allocations: addresses });
  return { addresses, availability: new NetworkAvailabilityRepository(db) };
}
