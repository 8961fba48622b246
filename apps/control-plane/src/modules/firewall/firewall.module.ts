import type { FastifyInstance } from 'fastify';

import type { Db } from '../../db/database.js';
import type { ModuleContext } from '../module.js';
import { AddressGroupRepository } from './address-group.repository.js';
import { AddressGroupService } from './address-group.service.js';
import { FirewallRepository } from './firewall.repository.js';
import { firewallRoutes, type FirewallRouteServices } from './firewall.routes.js';
import { FirewallService } from './firewall.service.js';
import { RuleRepository } from './rule.repository.js';
import { RuleService } from './rule.service.js';
import { RuleSetRepository } from './ruleset.repository.js';
import { RuleSetService } from './ruleset.service.js';

/** VMs' firewalls: rule sets, rules and address groups, compiled into each VM's wanted state. */
export async function registerFirewallModule(
  app: FastifyInstance,
  { db, now, changed }: ModuleContext & { readonly changed: () => void },
): Promise<{ readonly firewall: FirewallService }> {
  const { firewall, routes } = createFirewallModule(db, now, changed);
  await app.register(firewallRoutes, routes);
  return { firewall };
}

/** The firewall module assembled without HTTP: the service the dispatcher and the VM module use, and what the routes call. */
export function createFirewallModule(
  db: Db,
  now: () => Date,
  /** Told after a change that bumped VMs has committed (the dispatcher's kick). */
  changed?: () => void,
): { readonly firewall: FirewallService; readonly routes: FirewallRouteServices } {
  const candidates = new FirewallRepository(db);
  const firewall = new FirewallService({ firewall: candidates, changed });
  const rulesets = new RuleSetRepository(db);
  return {
    firewall,
    routes: {
      rulesets: new RuleSetService({ rulesets, firewall, candidates, now }),
      rules: new RuleService({ rules: new RuleRepository(db), rulesets, firewall, candidates, now }),
      groups: new AddressGroupService({
        groups: new AddressGroupRepository(db),
        firewall,
        candidates,
        now,
      }),
    },
  };
}
