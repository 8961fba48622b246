import { NotFoundError } from '@noderings/domain';

import type { Page, PageResult } from '../../http/pagination.js';
import type { bumpVmGenerations } from '../virtual-machines/index.js';
import { BLOCK_BY_DEFAULT, effectiveSmtpBlocked, type SmtpOutboundVmAction } from './outbound-smtp-policy.js';
import type { OutboundSmtpRepository, VmSmtpPolicyRecord } from './outbound-smtp.repository.js';

/** One VM's policy with what it comes to. */
export type VmSmtpPolicy = VmSmtpPolicyRecord & { readonly effectiveBlocked: boolean };

/**
 * Outbound SMTP of the VMs on a provider's infrastructure (ProviderNetworkService): a default, and a
 * decision per VM that may follow it. A change bumps the generation of exactly the live VMs whose
 * effective block it flips, in its transaction, so that the dispatcher sends them `smtpBlocked` anew.
 */
export class OutboundSmtpService {
  constructor(
    private readonly deps: {
      readonly policies: Pick<
        OutboundSmtpRepository,
        | 'transaction'
        | 'lockProvider'
        | 'blockByDefault'
        | 'putBlockByDefault'
        | 'list'
        | 'findLiveVm'
        | 'vmPolicy'
        | 'setAction'
        | 'inheritingLiveVms'
      >;
      readonly bumpGenerations: typeof bumpVmGenerations;
      /** Told after a change that bumped VMs has committed: the dispatcher looks at once. */
      readonly changed?: (() => void) | undefined;
    },
  ) {}

  async blockByDefault(providerOrganizationId: string): Promise<boolean> {
    return (await this.deps.policies.blockByDefault(providerOrganizationId)) ?? BLOCK_BY_DEFAULT;
  }

  async setBlockByDefault(providerOrganizationId: string, blockByDefault: boolean): Promise<boolean> {
    const { policies } = this.deps;
    const bumped = await policies.transaction(async (tx) => {
      await policies.lockProvider(tx, providerOrganizationId);
      const before = (await policies.blockByDefault(providerOrganizationId, tx)) ?? BLOCK_BY_DEFAULT;
      await policies.putBlockByDefault(tx, providerOrganizationId, blockByDefault);
      if (before === blockByDefault) return [];
      return this.deps.bumpGenerations(tx, await policies.inheritingLiveVms(tx, providerOrganizationId));
    });
    if (bumped.length > 0) this.deps.changed?.();
    return blockByDefault;
  }

  async list(
    providerOrganizationId: string,
    search: string | undefined,
    page: Page,
  ): Promise<PageResult<VmSmtpPolicy>> {
    const [result, blockByDefault] = await Promise.all([
      this.deps.policies.list(providerOrganizationId, search, page),
      this.blockByDefault(providerOrganizationId),
    ]);
    return { ...result, items: result.items.map((vm) => withEffect(vm, blockByDefault)) };
  }

  async getVm(providerOrganizationId: string, vmId: string): Promise<VmSmtpPolicy> {
    const vm = await this.deps.policies.findLiveVm(providerOrganizationId, vmId);
    if (vm === undefined) throw NotFoundError.of('Virtual machine', vmId);
    return withEffect(vm, await this.blockByDefault(providerOrganizationId));
  }

  async setVm(
    providerOrganizationId: string,
    vmId: string,
    action: SmtpOutboundVmAction,
  ): Promise<VmSmtpPolicy> {
    const { policies } = this.deps;
    const bumped = await policies.transaction(async (tx) => {
      await policies.lockProvider(tx, providerOrganizationId);
      const vm = await policies.findLiveVm(providerOrganizationId, vmId, tx);
      if (vm === undefined) throw NotFoundError.of('Virtual machine', vmId);
      const blockByDefault = (await policies.blockByDefault(providerOrganizationId, tx)) ?? BLOCK_BY_DEFAULT;
      await policies.setAction(tx, vmId, action);
      if (effectiveSmtpBlocked(blockByDefault, vm.action) === effectiveSmtpBlocked(blockByDefault, action))
        return [];
      return this.deps.bumpGenerations(tx, [vmId]);
    });
    if (bumped.length > 0) this.deps.changed?.();
    return this.getVm(providerOrganizationId, vmId);
  }

  /** For the dispatcher: the VM's `smtpBlocked`. */
  async effectiveBlockedFor(vmId: string): Promise<boolean> {
    const vm = await this.deps.policies.vmPolicy(vmId);
    if (vm === undefined) throw NotFoundError.of('Virtual machine', vmId);
    return effectiveSmtpBlocked(await this.blockByDefault(vm.providerOrganizationId), vm.action);
  }
}

function withEffect(vm: VmSmtpPolicyRecord, blockByDefault: boolean): VmSmtpPolicy {
  return { ...vm, effectiveBlocked: effectiveSmtpBlocked(blockByDefault, vm.action) };
}
