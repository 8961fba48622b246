import { createHash } from 'node:crypto';

import {
  AbortedError,
  AlreadyExistsError,
  FailedPreconditionError,
  InvalidArgumentError,
  NotFoundError,
  ResourceExhaustedError,
} from '@noderings/domain';
import type { Transaction } from 'kysely';

import type { SecretBox } from '../../crypto/secret-box.js';
import type { Database } from '../../db/schema.js';
import type { Page, PageResult } from '../../http/pagination.js';
import type { CloudInitCompileService } from '../cloud-init-templates/index.js';
import type { CloudInitUserDataService } from '../cloud-init-user-data/index.js';
import type { MarketplaceRepository } from '../marketplace/index.js';
import type { OrderRefusalRepository } from '../order-refusals/index.js';
import { PlacementExhaustedError, type ClaimService } from '../placement/index.js';
import { openCloudInitRequest, sealCloudInitRequest, type CloudInitRequest } from './cloud-init-request.js';
import { orderedSpec, type OrderedSpec } from './order-spec.js';
import type {
  MovingVm,
  VirtualMachineRecord,
  VirtualMachineRepository,
  VmFilter,
  VmScope,
} from './virtual-machine.repository.js';

type Tx = Transaction<Database>;
type VmClaim = Parameters<Parameters<ClaimService['claimAnd']>[1]>[1];
type Compile = Awaited<ReturnType<CloudInitCompileService['prepareForVm']>>;

/** What a reinstall may change: the distro, the host name, and how the customer gets in (exactly one way). */
export interface ReinstallInput {
  readonly distro?: string | undefined;
  readonly hostname?: string | undefined;
  readonly sshKeyIds?: readonly string[] | undefined;
  readonly password?: string | undefined;
  readonly userData?: string | undefined;
  readonly cloudInitUserDataId?: string | undefined;
}

export interface OrderInput {
  readonly hostname: string;
  readonly planId: string;
  readonly regionId: string;
  readonly distro: string;
  readonly sshKeyIds?: readonly string[] | undefined;
  readonly password?: string | undefined;
  readonly userData?: string | undefined;
  readonly cloudInitUserDataId?: string | undefined;
  readonly tags: readonly string[];
  readonly idempotencyKey: string;
}

/** The sealed cloud-init of a VM opens only as that VM's. */
export function cloudInitAssociatedData(vmId: string): string {
  return `virtual-machines/${vmId}/cloud-init`;
}

/**
 * Orders and the customer's wishes for a VM. An order is one transaction from the claim to the VM row
 * (placement/claim.service.ts `claimAnd`); every later wish is a new generation the dispatcher carries into
 * the agent cluster. Idempotent by the customer's `idempotencyKey` (DESIGN §4 invariant 3).
 */
export class VirtualMachineService {
  constructor(
    private readonly deps: {
      readonly vms: Pick<
        VirtualMachineRepository,
        | 'findByIdempotencyKey'
        | 'find'
        | 'list'
        | 'templatesForOrder'
        | 'orderNode'
        | 'orderTemplate'
        | 'orderPlan'
        | 'gateways'
        | 'dnsServers'
        | 'insert'
        | 'changeDesired'
        | 'transaction'
        | 'reinstall'
        | 'dismissFailure'
        | 'findMoving'
        | 'moveTo'
      >;
      readonly claims: Pick<ClaimService, 'claimAnd' | 'moveAnd'>;
      /** Orders go only to plans the marketplace lists: a private or unready plan is not for sale. */
      readonly offers: Pick<MarketplaceRepository, 'isListed'>;
      /** Where a refused order's reasons go: the provider's to read, never the customer's. */
      readonly refusals: Pick<OrderRefusalRepository, 'record'>;
      readonly cloudInit: Pick<CloudInitCompileService, 'prepareForVm' | 'hashPassword'>;
      readonly profiles: Pick<CloudInitUserDataService, 'get'>;
      readonly secretBox: Pick<SecretBox, 'seal' | 'open'>;
      readonly newId: () => string;
      /** Told after every change: the dispatcher looks at once instead of at its next poll. */
      readonly changed: () => void;
      /**
       * Told, in the transaction that writes the VM and before it does, which tags gained or lost a live VM
       * of the organisation: firewall rules naming them change (firewall/firewall.service.ts).
       */
      readonly tagsChanged?: (tx: Tx, organizationId: string, tags: readonly string[]) => Promise<void>;
    },
  ) {}

  /** The VM of the order, and whether this call created it (false: the key was used for it before). */
  async order(
    clientOrganizationId: string,
    input: OrderInput,
  ): Promise<{ vm: VirtualMachineRecord; created: boolean }> {
    const fingerprint = fingerprintOf(input);
    const earlier = await this.#earlierOrder(clientOrganizationId, input.idempotencyKey, fingerprint);
    if (earlier !== undefined) return { vm: earlier, created: false };
    if (!(await this.deps.offers.isListed(input.planId, input.regionId))) {
      // Not found, as the marketplace answers: an unlisted plan's existence is its provider's business.
      if (!(await this.deps.offers.isListed(input.planId))) throw NotFoundError.of('Plan', input.planId);
      throw InvalidArgumentError.field('regionId', 'is not a region where this plan is offered now');
    }
    const templates = await this.deps.vms.templatesForOrder(input.planId, input.regionId, input.distro);
    if (templates.length === 0)
      throw new FailedPreconditionError(
        `Plan ${input.planId} offers no template for ${input.distro} in this region.`,
        [{ field: 'distro', description: 'no node of the plan in the region has a template for it' }],
      );
    const userData =
      input.cloudInitUserDataId === undefined
        ? input.userData
        : (await this.deps.profiles.get(clientOrganizationId, input.cloudInitUserDataId)).userData;
    // Slow on purpose (SHA-512-crypt): done before the claim takes its locks.
    const passwordHash =
      input.password === undefined ? undefined : this.deps.cloudInit.hashPassword(input.password);
    const request: CloudInitRequest = {
      hostname: input.hostname,
      sshKeyIds: input.sshKeyIds ?? [],
      passwordHash,
      userData,
    };
    const compilers = await this.#prepare(clientOrganizationId, templates, request);
    const nodeIds = templates.map((t) => t.nodeId);
    const id = this.deps.newId();
    try {
      await this.deps.claims.claimAnd(
        {
          clientOrganizationId,
          planId: input.planId,
          regionId: input.regionId,
          claimId: id,
          onlyNodeIds: nodeIds,
        },
        (tx, claim) =>
          this.#record(tx, claim, { clientOrganizationId, input, fingerprint, compilers, request }),
      );
    } catch (e: unknown) {
      if (e instanceof ResourceExhaustedError) throw await this.#refused(input, e);
      // The same key in two concurrent orders: one commits, the other finds it now.
      if (!(e instanceof AbortedError)) throw e;
      const winner = await this.#earlierOrder(clientOrganizationId, input.idempotencyKey, fingerprint);
      if (winner === undefined) throw e;
      return { vm: winner, created: false };
    }
    this.deps.changed();
    const vm = await this.deps.vms.find({ clientOrganizationId }, id);
    if (vm === undefined) throw new Error(`VM ${id} vanished right after its order`);
    return { vm, created: true };
  }

  /**
   * Recompiles the VM's cloud-init and recreates its guest from the distro's template, keeping its VMID,
   * MAC and addresses (they stay claimed throughout): the old guest is deleted before the new one is made.
   */
  async reinstall(
    clientOrganizationId: string,
    id: string,
    input: ReinstallInput,
  ): Promise<VirtualMachineRecord> {
    const vm = await this.get({ clientOrganizationId }, id);
    if (vm.desiredState === 'ABSENT' || vm.nodeId === null)
      throw new FailedPreconditionError(`Virtual machine ${vm.id} is being deleted.`);
    const distro = input.distro ?? vm.distro;
    const hostname = input.hostname ?? vm.hostname;
    const ordered = vm.spec as unknown as OrderedSpec;
    const template = await this.deps.vms.orderTemplate(vm.nodeId, distro);
    if (template === undefined)
      throw new FailedPreconditionError(`The VM's node has no template for ${distro}.`, [
        { field: 'distro', description: "no template for it on the VM's node" },
      ]);
    const userData =
      input.cloudInitUserDataId === undefined
        ? input.userData
        : (await this.deps.profiles.get(clientOrganizationId, input.cloudInitUserDataId)).userData;
    const request: CloudInitRequest = {
      hostname,
      sshKeyIds: input.sshKeyIds ?? [],
      passwordHash:
        input.password === undefined ? undefined : this.deps.cloudInit.hashPassword(input.password),
      userData,
    };
    const compile = await this.deps.cloudInit.prepareForVm(
      vm.providerOrganizationId,
      template.cloudInitTemplateId,
      { ...request, sshKeyOrganizationId: clientOrganizationId },
    );
    const { network } = ordered;
    const compiled = compile({
      ipv4: network.ipv4,
      ipv6: network.ipv6,
      nameservers: network.nameservers ?? [],
      macAddress: network.mac,
    });
    const spec: OrderedSpec = {
      ...ordered,
      templateVmid: template.templateVmid,
      cpu: { ...ordered.cpu, ...(template.proxmoxCpuType !== '' && { type: template.proxmoxCpuType }) },
    };
    const recorded = await this.deps.vms.reinstall(clientOrganizationId, id, {
      hostname,
      distro,
      spec,
      cloudInitCiphertext: this.deps.secretBox.seal(JSON.stringify(compiled), cloudInitAssociatedData(id)),
      cloudInitRequestCiphertext: sealCloudInitRequest(this.deps.secretBox, id, request),
    });
    if (!recorded) throw new FailedPreconditionError(`Virtual machine ${vm.id} is being deleted.`);
    this.deps.changed();
    return this.get({ clientOrganizationId }, id);
  }

  /**
   * Places an order that failed on its node on another, once its failed guest is gone:
   * the claim moves to another node of the plan in the same region with a template for the distro, never
   * one the order failed on, taking that node's VMID, MAC and addresses; the spec and cloud-init are
   * written anew for it in the same transaction. The VM keeps its id. 'nowhere' when no node can take it
   * (the failure is then final); 'settled' when the VM no longer waits to move (deleted meanwhile).
   */
  async placeAgain(id: string): Promise<'moved' | 'nowhere' | 'settled'> {
    const vm = await this.deps.vms.findMoving(id);
    if (vm === undefined) return 'settled';
    const request = openCloudInitRequest(this.deps.secretBox, id, vm.cloudInitRequestCiphertext);
    const failed = new Set(vm.failedNodeIds);
    const templates = (await this.deps.vms.templatesForOrder(vm.planId, vm.regionId, vm.distro)).filter(
      (t) => !failed.has(t.nodeId),
    );
    if (request === undefined || templates.length === 0) return 'nowhere';
    try {
      const compilers = await this.#prepare(vm.clientOrganizationId, templates, request);
      await this.deps.claims.moveAnd(
        {
          clientOrganizationId: vm.clientOrganizationId,
          planId: vm.planId,
          regionId: vm.regionId,
          claimId: id,
          onlyNodeIds: templates.map((t) => t.nodeId),
        },
        (tx, claim) => this.#recordMove(tx, claim, vm, compilers),
      );
    } catch (e: unknown) {
      // No capacity, address or template elsewhere, or what the cloud-init names (a key, a secret) is gone.
      if (
        e instanceof ResourceExhaustedError ||
        e instanceof NotFoundError ||
        e instanceof FailedPreconditionError
      )
        return 'nowhere';
      throw e;
    }
    this.deps.changed();
    return 'moved';
  }

  async get(scope: VmScope, id: string): Promise<VirtualMachineRecord> {
    const vm = await this.deps.vms.find(scope, id);
    if (vm === undefined) throw NotFoundError.of('Virtual machine', id);
    return vm;
  }

  list(scope: VmScope, filter: VmFilter, page: Page): Promise<PageResult<VirtualMachineRecord>> {
    return this.deps.vms.list(scope, filter, page);
  }

  start(clientOrganizationId: string, id: string): Promise<VirtualMachineRecord> {
    return this.#change(clientOrganizationId, id, { desiredPowerState: 'Running' });
  }

  stop(clientOrganizationId: string, id: string): Promise<VirtualMachineRecord> {
    return this.#change(clientOrganizationId, id, { desiredPowerState: 'Stopped' });
  }

  /** A reboot token newer than the last reboot the operator reports; a stopped VM is started instead. */
  restart(clientOrganizationId: string, id: string, now: Date): Promise<VirtualMachineRecord> {
    return this.#change(clientOrganizationId, id, { desiredPowerState: 'Running', rebootRequestedAt: now });
  }

  /** Deletion is wanted now; the addresses, MAC, VMID and capacity are released once the VM is gone. */
  async delete(clientOrganizationId: string, id: string): Promise<VirtualMachineRecord> {
    const vm = await this.get({ clientOrganizationId }, id);
    if (vm.failedAt !== undefined) {
      // Already withdrawn and (once its ProxmoxVM is gone) released: deleting only stops showing it.
      await this.deps.vms.dismissFailure(clientOrganizationId, id);
      return this.get({ clientOrganizationId }, id);
    }
    if (vm.desiredState === 'ABSENT') return vm;
    return this.#change(clientOrganizationId, id, { desiredState: 'ABSENT' }, vm.tags);
  }

  async updateTags(
    clientOrganizationId: string,
    id: string,
    add: readonly string[],
    remove: readonly string[],
  ): Promise<VirtualMachineRecord> {
    const vm = await this.get({ clientOrganizationId }, id);
    const removed = new Set(remove);
    const tags = [...new Set([...vm.tags, ...add])].filter((t) => !removed.has(t)).sort();
    const before = new Set(vm.tags);
    const after = new Set(tags);
    const changed = [...new Set([...vm.tags, ...tags])].filter((t) => before.has(t) !== after.has(t));
    return this.#change(clientOrganizationId, id, { tags }, changed);
  }

  async #change(
    clientOrganizationId: string,
    id: string,
    change: Parameters<VirtualMachineRepository['changeDesired']>[2],
    changedTags: readonly string[] = [],
  ): Promise<VirtualMachineRecord> {
    const tagsChanged = this.deps.tagsChanged;
    const changed =
      changedTags.length === 0 || tagsChanged === undefined
        ? await this.deps.vms.changeDesired(clientOrganizationId, id, change)
        : await this.deps.vms.transaction(async (tx) => {
            await tagsChanged(tx, clientOrganizationId, changedTags);
            return this.deps.vms.changeDesired(clientOrganizationId, id, change, tx);
          });
    if (!changed) {
      const vm = await this.get({ clientOrganizationId }, id);
      throw new FailedPreconditionError(`Virtual machine ${vm.id} is being deleted.`);
    }
    this.deps.changed();
    return this.get({ clientOrganizationId }, id);
  }

  /**
   * Records why no node took the order for its provider, and answers the customer without the provider's
   * internals (node names, what is sold, the agent's state).
   */
  async #refused(input: OrderInput, e: ResourceExhaustedError): Promise<ResourceExhaustedError> {
    const recorded = await this.deps.refusals.record({
      planId: input.planId,
      regionId: input.regionId,
      summary: e.message,
      nodes: e instanceof PlacementExhaustedError ? e.refusals : [],
    });
    const plan = recorded === undefined ? 'this plan' : `plan ${recorded.planCode}`;
    return new ResourceExhaustedError(
      `No capacity for ${plan} in this region right now; try again later or choose another offer.`,
    );
  }

  async #earlierOrder(
    clientOrganizationId: string,
    idempotencyKey: string,
    fingerprint: string,
  ): Promise<VirtualMachineRecord | undefined> {
    const earlier = await this.deps.vms.findByIdempotencyKey(clientOrganizationId, idempotencyKey);
    if (earlier !== undefined && earlier.requestFingerprint !== fingerprint)
      throw new AlreadyExistsError(
        `idempotencyKey ${idempotencyKey} was used for a different order; use a new key for a new VM.`,
      );
    return earlier;
  }

  /** Everything cloud-init reads, read now, per cloud-init template: inside the claim's transaction it only compiles. */
  async #prepare(
    clientOrganizationId: string,
    templates: readonly { organizationId: string; cloudInitTemplateId: string }[],
    request: CloudInitRequest,
  ): Promise<Map<string, Compile>> {
    const compilers = new Map<string, Compile>();
    for (const t of templates)
      if (!compilers.has(t.cloudInitTemplateId))
        compilers.set(
          t.cloudInitTemplateId,
          await this.deps.cloudInit.prepareForVm(t.organizationId, t.cloudInitTemplateId, {
            ...request,
            sshKeyOrganizationId: clientOrganizationId,
          }),
        );
    return compilers;
  }

  /** Inside the claim's transaction: the VM's spec and cloud-init from what the claim took. */
  async #record(
    tx: Tx,
    claim: VmClaim,
    order: {
      clientOrganizationId: string;
      input: OrderInput;
      fingerprint: string;
      compilers: ReadonlyMap<string, Compile>;
      request: CloudInitRequest;
    },
  ): Promise<void> {
    const { input } = order;
    const placed = await this.#placedSpec(tx, claim, input.distro, order.compilers);
    const tags = [...new Set(input.tags)].sort();
    if (tags.length > 0) await this.deps.tagsChanged?.(tx, order.clientOrganizationId, tags);
    await this.deps.vms.insert(tx, {
      id: claim.id,
      clientOrganizationId: order.clientOrganizationId,
      providerOrganizationId: claim.providerOrganizationId,
      planId: claim.planId,
      agentId: placed.agentId,
      nodeId: placed.nodeId,
      idempotencyKey: input.idempotencyKey,
      requestFingerprint: order.fingerprint,
      hostname: input.hostname,
      distro: input.distro,
      tags,
      spec: placed.spec,
      cloudInitCiphertext: placed.cloudInitCiphertext,
      cloudInitRequestCiphertext: sealCloudInitRequest(this.deps.secretBox, claim.id, order.request),
    });
  }

  /** Inside the move's transaction: the VM's new node, spec and cloud-init from what the moved claim took. */
  async #recordMove(
    tx: Tx,
    claim: VmClaim,
    vm: MovingVm,
    compilers: ReadonlyMap<string, Compile>,
  ): Promise<void> {
    const placed = await this.#placedSpec(tx, claim, vm.distro, compilers);
    // The claim moved under the lock of its row; a VM that stopped waiting meanwhile undoes the move.
    if (!(await this.deps.vms.moveTo(tx, vm.id, placed)))
      throw new AbortedError(`Virtual machine ${vm.id} changed while it was placed again.`);
  }

  /** The spec and sealed cloud-init of a VM on the node its claim holds. */
  async #placedSpec(
    tx: Tx,
    claim: VmClaim,
    distro: string,
    compilers: ReadonlyMap<string, Compile>,
  ): Promise<{ agentId: string; nodeId: string; spec: OrderedSpec; cloudInitCiphertext: string }> {
    const nodeId = claim.nodeId;
    if (nodeId === null || claim.ipv4 === undefined)
      throw new Error(`claim ${claim.id} came back without its node`);
    const [node, template, plan] = await Promise.all([
      this.deps.vms.orderNode(tx, nodeId),
      this.deps.vms.orderTemplate(nodeId, distro, tx),
      this.deps.vms.orderPlan(tx, claim.planId),
    ]);
    if (node?.agentId == null || node.networkId === null)
      throw new FailedPreconditionError(`Node ${nodeId} has no agent or network to provision through.`);
    if (template === undefined || plan === undefined)
      throw new FailedPreconditionError(`Node ${nodeId} has no template for ${distro}.`);
    const allocations = [claim.ipv4.allocationId, ...(claim.ipv6 ? [claim.ipv6.allocationId] : [])];
    const [gateways, nameservers] = await Promise.all([
      this.deps.vms.gateways(tx, allocations),
      this.deps.vms.dnsServers(tx, node.networkId),
    ]);
    const ipv4 = { address: claim.ipv4.allocatedCidr, gateway: gateways.get(claim.ipv4.allocationId) ?? '' };
    const ipv6 = claim.ipv6 && {
      address: claim.ipv6.allocatedCidr,
      gateway: gateways.get(claim.ipv6.allocationId) ?? '',
    };
    const compile = compilers.get(template.cloudInitTemplateId);
    if (compile === undefined)
      throw new Error(
        `no cloud-init prepared for template ${template.cloudInitTemplateId} of node ${nodeId}`,
      );
    const compiled = compile({ ipv4, ipv6, nameservers, macAddress: claim.macAddress });
    const spec = orderedSpec({
      vmId: claim.id,
      node,
      template,
      plan: { ...plan, vcpus: claim.vcpus, ramGb: claim.ramGb, diskGb: claim.diskGb },
      vmid: claim.vmid,
      macAddress: claim.macAddress,
      ipv4,
      ipv6,
      nameservers,
    });
    return {
      agentId: node.agentId,
      nodeId,
      spec,
      cloudInitCiphertext: this.deps.secretBox.seal(
        JSON.stringify(compiled),
        cloudInitAssociatedData(claim.id),
      ),
    };
  }
}

/**
 * What makes two orders the same: every field but the password, which is only known to be there (its
 * hash would be a way to test guesses offline).
 */
function fingerprintOf(input: OrderInput): string {
  const canonical = JSON.stringify({
    hostname: input.hostname,
    planId: input.planId,
    regionId: input.regionId,
    distro: input.distro,
    sshKeyIds: [...(input.sshKeyIds ?? [])].sort(),
    password: input.password !== undefined,
    userData: input.userData ?? null,
    cloudInitUserDataId: input.cloudInitUserDataId ?? null,
    tags: [...new Set(input.tags)].sort(),
  });
  return createHash('sha256').update(canonical).digest('hex');
}
