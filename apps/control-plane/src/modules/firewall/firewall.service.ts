import { compileFirewallRules, firewallRuleReferences } from '@noderings/domain';
import type { FirewallRule } from '@noderings/kube';
import type { Transaction } from 'kysely';

import type { Database } from '../../db/schema.js';
import type { FirewallRepository } from './firewall.repository.js';

type Tx = Transaction<Database>;

/** What the dispatcher puts in a VM's FirewallRuleSet custom resource. */
export interface CompiledRuleSet {
  /** The custom resource's name, which the ProxmoxVM's `firewallRuleSetRef` names. */
  readonly name: string;
  readonly rules: FirewallRule[];
}

/** The FirewallRuleSet of a VM is its own (DESIGN §3.1: a VM's resources are named `nr-{uuid}`…). */
function ruleSetResourceName(vmId: string): string {
  return `nr-${vmId}-firewall`;
}

/**
 * The firewall as the agent clusters get it: each VM's compiled ruleset, and the rule every change keeps,
 * that the generation of exactly the live VMs whose compiled ruleset it changed is bumped, in the
 * change's transaction and under the organisation's lock (docs/adr/0012-firewall-compilation.md).
 */
export class FirewallService {
  constructor(
    private readonly deps: {
      readonly firewall: Pick<
        FirewallRepository,
        | 'transaction'
        | 'snapshot'
        | 'lockOrganization'
        | 'attachmentsOf'
        | 'rulesOf'
        | 'addressGroupPrefixes'
        | 'tagAddresses'
        | 'liveVmsNamingTags'
        | 'bumpGenerations'
      >;
      /** Told after a change that bumped VMs has committed: the dispatcher looks at once. */
      readonly changed?: (() => void) | undefined;
    },
  ) {}

  /** The transactions of `transaction` that bumped a VM. */
  readonly #bumped = new WeakSet<Tx>();

  /** The VM's FirewallRuleSet for its agent cluster; undefined when no ruleset is attached to it. */
  async compiledRuleSetFor(vmId: string): Promise<CompiledRuleSet | undefined> {
    const compiled = await this.deps.firewall.snapshot((tx) => this.#compile(tx, [vmId]));
    return compiled.get(vmId);
  }

  /**
   * Call in the transaction that changes which of the organisation's live VMs carry `tags` (a VM ordered
   * or deleted with them, tags added or removed: give those added and removed, or an address of such a
   * VM changed), before it writes the VM: bumps the live VMs whose ruleset names one of the tags.
   */
  async vmTagsChanged(tx: Tx, organizationId: string, tags: readonly string[]): Promise<void> {
    await this.deps.firewall.lockOrganization(tx, organizationId);
    const affected = await this.deps.firewall.liveVmsNamingTags(tx, organizationId, tags);
    await this.deps.firewall.bumpGenerations(tx, affected);
  }

  /** A transaction holding the organisation's firewall lock: every firewall change runs in one. */
  async transaction<T>(organizationId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
    const { result, bumped } = await this.deps.firewall.transaction(async (tx) => {
      await this.deps.firewall.lockOrganization(tx, organizationId);
      return { result: await work(tx), bumped: this.#bumped.has(tx) };
    });
    if (bumped) this.deps.changed?.();
    return result;
  }

  /**
   * Runs `change` and bumps those of `candidates` (every live VM the change might reach) whose compiled
   * ruleset it changed. Answers what `change` answered.
   */
  async applyChange<T>(tx: Tx, candidates: readonly string[], change: () => Promise<T>): Promise<T> {
    const before = await this.#fingerprints(tx, candidates);
    const result = await change();
    const after = await this.#fingerprints(tx, candidates);
    const bumped = await this.deps.firewall.bumpGenerations(
      tx,
      candidates.filter((id) => before.get(id) !== after.get(id)),
    );
    if (bumped.length > 0) this.#bumped.add(tx);
    return result;
  }

  async #fingerprints(tx: Tx, vmIds: readonly string[]): Promise<Map<string, string>> {
    const compiled = await this.#compile(tx, vmIds);
    return new Map(vmIds.map((id) => [id, JSON.stringify(compiled.get(id) ?? null)]));
  }

  /** Each VM's compiled ruleset, with every name resolved in one read per kind. */
  async #compile(tx: Tx, vmIds: readonly string[]): Promise<Map<string, CompiledRuleSet>> {
    const { firewall } = this.deps;
    const attachments = await firewall.attachmentsOf(tx, [...new Set(vmIds)]);
    const rules = await firewall.rulesOf(tx, [...new Set(attachments.map((a) => a.rulesetId))]);
    const references = rules.map((r) => firewallRuleReferences(r.rule));
    const groups = await firewall.addressGroupPrefixes(tx, [
      ...new Set(references.flatMap((r) => r.addressGroupIds)),
    ]);
    const tags = [...new Set(references.flatMap((r) => r.vmTags))];
    const tagsByOrganization = new Map<string, Map<string, string[]>>();
    for (const organizationId of new Set(attachments.map((a) => a.organizationId)))
      tagsByOrganization.set(organizationId, await firewall.tagAddresses(tx, organizationId, tags));
    // A ruleset compiles the same for every VM it is attached to.
    const byRuleSet = new Map<string, FirewallRule[]>();
    const compiled = new Map<string, CompiledRuleSet>();
    for (const { vmId, rulesetId, organizationId } of attachments) {
      let compiledRules = byRuleSet.get(rulesetId);
      if (compiledRules === undefined) {
        compiledRules = compileFirewallRules(
          rules.filter((r) => r.rulesetId === rulesetId),
          { addressGroups: groups, vmTags: tagsByOrganization.get(organizationId) ?? new Map() },
        );
        byRuleSet.set(rulesetId, compiledRules);
      }
      compiled.set(vmId, { name: ruleSetResourceName(vmId), rules: compiledRules });
    }
    return compiled;
  }
}
