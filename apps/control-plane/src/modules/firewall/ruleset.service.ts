import { FailedPreconditionError, NotFoundError } from '@noderings/domain';
import type { Transaction } from 'kysely';

import type { Database } from '../../db/schema.js';
import type { Page, PageResult } from '../../http/pagination.js';
import type { FirewallRepository } from './firewall.repository.js';
import type { FirewallService } from './firewall.service.js';
import type { RuleSetFilter, RuleSetRecord, RuleSetRepository } from './ruleset.repository.js';

const RULESET = 'Firewall ruleset';

/** A customer's rulesets and which of their VMs each is attached to (at most one per VM). */
export class RuleSetService {
  constructor(
    private readonly deps: {
      readonly rulesets: Pick<
        RuleSetRepository,
        | 'list'
        | 'find'
        | 'lock'
        | 'insert'
        | 'rename'
        | 'delete'
        | 'hasLiveVm'
        | 'attachedRuleSet'
        | 'attach'
        | 'detach'
      >;
      readonly firewall: Pick<FirewallService, 'transaction' | 'applyChange'>;
      readonly candidates: Pick<FirewallRepository, 'liveVmsAttachedTo'>;
      readonly now: () => Date;
    },
  ) {}

  list(organizationId: string, filter: RuleSetFilter, page: Page): Promise<PageResult<RuleSetRecord>> {
    return this.deps.rulesets.list(organizationId, filter, page);
  }

  async get(organizationId: string, id: string): Promise<RuleSetRecord> {
    const ruleset = await this.deps.rulesets.find(organizationId, id);
    if (ruleset === undefined) throw NotFoundError.of(RULESET, id);
    return ruleset;
  }

  async create(organizationId: string, name: string): Promise<RuleSetRecord> {
    const id = await this.deps.rulesets.insert(organizationId, name, this.deps.now());
    return this.get(organizationId, id);
  }

  /** The name is only shown: the compiled rules do not change, so no VM is told. */
  async rename(organizationId: string, id: string, name: string): Promise<RuleSetRecord> {
    const renamed = await this.deps.rulesets.rename(organizationId, id, name, this.deps.now());
    if (!renamed) throw NotFoundError.of(RULESET, id);
    return this.get(organizationId, id);
  }

  /** A ruleset attached to live VMs is deleted only with `force`, which detaches it from them first. */
  async delete(organizationId: string, id: string, force: boolean): Promise<void> {
    const { rulesets, firewall, candidates } = this.deps;
    await firewall.transaction(organizationId, async (tx) => {
      if (!(await rulesets.lock(tx, organizationId, id))) throw NotFoundError.of(RULESET, id);
      const attached = await candidates.liveVmsAttachedTo(tx, id);
      if (attached.length > 0 && !force)
        throw new FailedPreconditionError(
          `Firewall ruleset ${id} is attached to ${attached.length} VM(s); detach it first or delete with force=true.`,
        );
      await firewall.applyChange(tx, attached, () => rulesets.delete(tx, id));
    });
  }

  /** Attaches the ruleset to the VM in place of the one it had, in one step: the VM is never unprotected. */
  async attach(organizationId: string, vmId: string, rulesetId: string): Promise<RuleSetRecord> {
    const { rulesets, firewall } = this.deps;
    await firewall.transaction(organizationId, async (tx) => {
      await this.#lockBoth(tx, organizationId, vmId, rulesetId);
      if ((await rulesets.attachedRuleSet(tx, vmId)) === rulesetId) return;
      await firewall.applyChange(tx, [vmId], () => rulesets.attach(tx, vmId, rulesetId));
    });
    return this.get(organizationId, rulesetId);
  }

  /** Afterwards the ruleset is not attached to the VM; a VM without it (or with another) is left as it is. */
  async detach(organizationId: string, vmId: string, rulesetId: string): Promise<RuleSetRecord> {
    const { rulesets, firewall } = this.deps;
    await firewall.transaction(organizationId, async (tx) => {
      await this.#lockBoth(tx, organizationId, vmId, rulesetId);
      if ((await rulesets.attachedRuleSet(tx, vmId)) !== rulesetId) return;
      await firewall.applyChange(tx, [vmId], () => rulesets.detach(tx, vmId));
    });
    return this.get(organizationId, rulesetId);
  }

  /** The VM must be the customer's and live, the ruleset the customer's (locked until the transaction ends). */
  async #lockBoth(
    tx: Transaction<Database>,
    organizationId: string,
    vmId: string,
    rulesetId: string,
  ): Promise<void> {
    if (!(await this.deps.rulesets.hasLiveVm(tx, organizationId, vmId)))
      throw NotFoundError.of('Virtual machine', vmId);
    if (!(await this.deps.rulesets.lock(tx, organizationId, rulesetId)))
      throw NotFoundError.of(RULESET, rulesetId);
  }
}
