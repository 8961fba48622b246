import type { FastifyPluginAsync } from 'fastify';

import { addressGroupRoutes } from './address-group.routes.js';
import type { AddressGroupService } from './address-group.service.js';
import { ruleRoutes } from './rule.routes.js';
import type { RuleService } from './rule.service.js';
import { ruleSetRoutes } from './ruleset.routes.js';
import type { RuleSetService } from './ruleset.service.js';

export interface FirewallRouteServices {
  readonly rulesets: RuleSetService;
  readonly rules: RuleService;
  readonly groups: AddressGroupService;
}

/** Rulesets (with `:attach-firewall` and `:detach-firewall` on VMs), their rules, and address groups. */
export const firewallRoutes: FastifyPluginAsync<FirewallRouteServices> = async (app, services) => {
  await app.register(ruleSetRoutes, { rulesets: services.rulesets });
  await app.register(ruleRoutes, { rules: services.rules });
  await app.register(addressGroupRoutes, { groups: services.groups });
};
