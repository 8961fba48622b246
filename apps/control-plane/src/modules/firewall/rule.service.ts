import {
  firewallRuleReferences,
  InvalidArgumentError,
  normalizeFirewallRule,
  NotFoundError,
  ResourceExhaustedError,
  type FieldViolation,
  type FirewallDirection,
  type FirewallRuleSpec,
} from '@noderings/domain';
import type { Transaction } from 'kysely';

import type { Database } from '../../db/schema.js';
import type { Page, PageResult } from '../../http/pagination.js';
import type { FirewallRepository } from './firewall.repository.js';
import type { FirewallService } from './firewall.service.js';
import type { RuleRecord, RuleRepository } from './rule.repository.js';
import type { RuleSetRepository } from './ruleset.repository.js';

type Tx = Transaction<Database>;

/** More rules than any hand-kept ruleset needs; each may compile to several Proxmox rules. */
export const MAX_RULES_PER_RULESET = 200;

export type MovePosition = 'FIREWALL_RULE_POSITION_BEFORE' | 'FIREWALL_RULE_POSITION_AFTER';

const RULE = 'Firewall rule';
const RULESET = 'Firewall ruleset';

/**
 * The rules of a ruleset, kept in a dense order per direction (0, 1, 2…) under the ruleset's row lock,
 * however many changes run at once. Every change reaches the VMs the ruleset is attached to.
 */
export class RuleService {
  constructor(
    private readonly deps: {
      readonly rules: Pick<
        RuleRepository,
        | 'list'
        | 'find'
        | 'count'
        | 'orderedIds'
        | 'ownAddressGroups'
        | 'insert'
        | 'update'
        | 'delete'
        | 'renumber'
      >;
      readonly rulesets: Pick<RuleSetRepository, 'lock' | 'find'>;
      readonly firewall: Pick<FirewallService, 'transaction' | 'applyChange'>;
      readonly candidates: Pick<FirewallRepository, 'liveVmsAttachedTo'>;
      readonly now: () => Date;
    },
  ) {}

  async list(
    organizationId: string,
    rulesetId: string,
    direction: FirewallDirection | undefined,
    page: Page,
  ): Promise<PageResult<RuleRecord>> {
    const result = await this.deps.rules.list(organizationId, rulesetId, direction, page);
    // An empty page says nothing about the ruleset: look it up only then.
    if (result.totalCount === 0) await this.#requireRuleSet(organizationId, rulesetId);
    return result;
  }

  async get(organizationId: string, id: string): Promise<RuleRecord> {
    const rule = await this.deps.rules.find(organizationId, id);
    if (rule === undefined) throw NotFoundError.of(RULE, id);
    return rule;
  }

  /** Added last in its direction. */
  async create(organizationId: string, rulesetId: string, input: FirewallRuleSpec): Promise<RuleRecord> {
    const rule = normalizeFirewallRule(input);
    const { rules, firewall } = this.deps;
    const id = await firewall.transaction(organizationId, async (tx) => {
      await this.#lockRuleSet(tx, organizationId, rulesetId);
      await this.#checkAddressGroups(tx, organizationId, rule);
      if ((await rules.count(tx, rulesetId)) >= MAX_RULES_PER_RULESET)
        throw new ResourceExhaustedError(`A firewall ruleset holds at most ${MAX_RULES_PER_RULESET} rules.`);
      const position = await rules.count(tx, rulesetId, rule.direction);
      return this.#changing(tx, rulesetId, () =>
        rules.insert(tx, { organizationId, rulesetId, position, rule, now: this.deps.now() }),
      );
    });
    return this.get(organizationId, id);
  }

  /** Replaces the rule; a rule moved to the other direction goes last there. */
  async update(organizationId: string, id: string, input: FirewallRuleSpec): Promise<RuleRecord> {
    const rule = normalizeFirewallRule(input);
    const { rules, firewall } = this.deps;
    await firewall.transaction(organizationId, async (tx) => {
      const current = await this.#lockRule(tx, organizationId, id);
      // jsonb keeps no key order: both sides are compared in the one spelling.
      if (JSON.stringify(normalizeFirewallRule(current.rule)) === JSON.stringify(rule)) return;
      await this.#checkAddressGroups(tx, organizationId, rule);
      const turned = current.rule.direction !== rule.direction;
      const position = turned ? await rules.count(tx, current.rulesetId, rule.direction) : current.position;
      await this.#changing(tx, current.rulesetId, async () => {
        await rules.update(tx, id, { position, rule, now: this.deps.now() });
        if (turned)
          await rules.renumber(tx, await rules.orderedIds(tx, current.rulesetId, current.rule.direction));
      });
    });
    return this.get(organizationId, id);
  }

  async delete(organizationId: string, id: string): Promise<void> {
    const { rules, firewall } = this.deps;
    await firewall.transaction(organizationId, async (tx) => {
      const current = await this.#lockRule(tx, organizationId, id);
      await this.#changing(tx, current.rulesetId, async () => {
        await rules.delete(tx, id);
        await rules.renumber(tx, await rules.orderedIds(tx, current.rulesetId, current.rule.direction));
      });
    });
  }

  /** Puts the rule just before (higher priority) or just after another rule of its ruleset and direction. */
  async move(
    organizationId: string,
    id: string,
    targetRuleId: string,
    position: MovePosition,
  ): Promise<RuleRecord> {
    const { rules, firewall } = this.deps;
    await firewall.transaction(organizationId, async (tx) => {
      const current = await this.#lockRule(tx, organizationId, id);
      const order = await rules.orderedIds(tx, current.rulesetId, current.rule.direction);
      const others = order.filter((ruleId) => ruleId !== id);
      const target = others.indexOf(targetRuleId);
      if (target < 0 && targetRuleId !== id)
        throw InvalidArgumentError.field(
          'targetRuleId',
          'must be another rule of the same ruleset and direction',
        );
      if (target < 0) return;
      others.splice(position === 'FIREWALL_RULE_POSITION_BEFORE' ? target : target + 1, 0, id);
      if (others.every((ruleId, i) => order[i] === ruleId)) return;
      await this.#changing(tx, current.rulesetId, () => rules.renumber(tx, others));
    });
    return this.get(organizationId, id);
  }

  /** The change, with the generation of every live VM whose compiled ruleset it changes bumped. */
  async #changing<T>(tx: Tx, rulesetId: string, change: () => Promise<T>): Promise<T> {
    const attached = await this.deps.candidates.liveVmsAttachedTo(tx, rulesetId);
    return this.deps.firewall.applyChange(tx, attached, change);
  }

  async #requireRuleSet(organizationId: string, rulesetId: string): Promise<void> {
    if ((await this.deps.rulesets.find(organizationId, rulesetId)) === undefined)
      throw NotFoundError.of(RULESET, rulesetId);
  }

  async #lockRuleSet(tx: Tx, organizationId: string, rulesetId: string): Promise<void> {
    if (!(await this.deps.rulesets.lock(tx, organizationId, rulesetId)))
      throw NotFoundError.of(RULESET, rulesetId);
  }

  /** The rule as it is once its ruleset is locked, so that no other change of the ruleset is under way. */
  async #lockRule(tx: Tx, organizationId: string, id: string): Promise<RuleRecord> {
    const found = await this.deps.rules.find(organizationId, id, tx);
    if (found === undefined) throw NotFoundError.of(RULE, id);
    await this.#lockRuleSet(tx, organizationId, found.rulesetId);
    const current = await this.deps.rules.find(organizationId, id, tx);
    if (current === undefined) throw NotFoundError.of(RULE, id);
    return current;
  }

  /** Address groups must be the organisation's own; another's is named as missing, never as foreign. */
  async #checkAddressGroups(tx: Tx, organizationId: string, rule: FirewallRuleSpec): Promise<void> {
    const named = firewallRuleReferences(rule).addressGroupIds;
    const own = await this.deps.rules.ownAddressGroups(tx, organizationId, named);
    const violations: FieldViolation[] = [];
    for (const side of ['source', 'destination'] as const)
      rule[side]?.addressGroupIds.forEach((groupId, i) => {
        if (!own.has(groupId))
          violations.push({
            field: `rule.${side}.addressGroupIds.${i}`,
            description: `address group ${groupId} was not found`,
          });
      });
    if (violations.length > 0)
      throw new InvalidArgumentError('The rule names address groups that do not exist.', violations);
  }
}
