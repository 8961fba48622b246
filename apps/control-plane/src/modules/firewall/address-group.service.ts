import { FailedPreconditionError, formatIpPrefix, NotFoundError, parseIpPrefix } from '@noderings/domain';

import type { Page, PageResult } from '../../http/pagination.js';
import type { AddressGroupRecord, AddressGroupRepository } from './address-group.repository.js';
import type { FirewallRepository } from './firewall.repository.js';
import type { FirewallService } from './firewall.service.js';

const ADDRESS_GROUP = 'Address group';

export interface AddressGroupFields {
  readonly name: string;
  /** CIDR prefixes (checked by the API schema); stored in their canonical spelling, once each. */
  readonly prefixes: readonly string[];
}

function canonicalPrefixes(prefixes: readonly string[]): string[] {
  return [...new Set(prefixes.map((p, i) => formatIpPrefix(parseIpPrefix(p, `group.prefixes.${i}`))))];
}

/** Named sets of prefixes that rules refer to; an edit reaches every VM whose ruleset names the group. */
export class AddressGroupService {
  constructor(
    private readonly deps: {
      readonly groups: Pick<
        AddressGroupRepository,
        'list' | 'find' | 'insert' | 'update' | 'isNamedByRules' | 'delete'
      >;
      readonly firewall: Pick<FirewallService, 'transaction' | 'applyChange'>;
      readonly candidates: Pick<FirewallRepository, 'liveVmsNamingAddressGroup'>;
      readonly now: () => Date;
    },
  ) {}

  list(organizationId: string, page: Page): Promise<PageResult<AddressGroupRecord>> {
    return this.deps.groups.list(organizationId, page);
  }

  async get(organizationId: string, id: string): Promise<AddressGroupRecord> {
    const group = await this.deps.groups.find(organizationId, id);
    if (group === undefined) throw NotFoundError.of(ADDRESS_GROUP, id);
    return group;
  }

  async create(organizationId: string, fields: AddressGroupFields): Promise<AddressGroupRecord> {
    return await this.deps.groups.insert(
      organizationId,
      { name: fields.name, prefixes: canonicalPrefixes(fields.prefixes) },
      this.deps.now(),
    );
  }

  async update(
    organizationId: string,
    id: string,
    changes: Partial<AddressGroupFields>,
  ): Promise<AddressGroupRecord> {
    const { groups, firewall, candidates } = this.deps;
    await firewall.transaction(organizationId, async (tx) => {
      const current = await groups.find(organizationId, id, tx, true);
      if (current === undefined) throw NotFoundError.of(ADDRESS_GROUP, id);
      const fields = {
        name: changes.name ?? current.name,
        prefixes: changes.prefixes === undefined ? current.prefixes : canonicalPrefixes(changes.prefixes),
      };
      const affected = await candidates.liveVmsNamingAddressGroup(tx, id);
      await firewall.applyChange(tx, affected, () => groups.update(tx, id, fields, this.deps.now()));
    });
    return this.get(organizationId, id);
  }

  /** Only a group no rule names: deleting one a rule names would change what the rule means. */
  async delete(organizationId: string, id: string): Promise<void> {
    const { groups, firewall } = this.deps;
    await firewall.transaction(organizationId, async (tx) => {
      if ((await groups.find(organizationId, id, tx, true)) === undefined)
        throw NotFoundError.of(ADDRESS_GROUP, id);
      if (await groups.isNamedByRules(tx, id))
        throw new FailedPreconditionError(
          `Address group ${id} is named by firewall rules; change or delete those rules first.`,
        );
      await groups.delete(tx, id);
    });
  }
}
