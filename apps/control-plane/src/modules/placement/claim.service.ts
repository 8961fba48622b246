import {
  AlreadyExistsError,
  chooseNode,
  DEFAULT_MAC_ADDRESS_PREFIX,
  DEFAULT_NODE_PLACEMENT_STRATEGY,
  FailedPreconditionError,
  formatIpAddress,
  InvalidArgumentError,
  macAddressOf,
  macAddressSuffix,
  nextMacAddressSuffix,
  nextVmid,
  normalizeMacAddressPrefix,
  NotFoundError,
  requestedAmounts,
  ResourceExhaustedError,
  strategyForRegion,
  type NodePlacementStrategy,
} from '@noderings/domain';
import type { Transaction } from 'kysely';

import type { Database } from '../../db/schema.js';
import type { IpAllocationService } from '../ipam/index.js';
import type { CandidateNode } from './candidate-node.repository.js';
import type { ClaimAddress, ClaimPlan, ClaimRepository, NewVmClaim, VmClaim } from './claim.repository.js';
import { nodeRefusalReasons } from './node-eligibility.js';
import { PlacementExhaustedError, type NodeRefusal } from './placement-exhausted-error.js';
import type { PlacementPolicyRepository } from './placement-policy.repository.js';

type Tx = Transaction<Database>;

export interface ClaimRequest {
  /** Who orders the VM. */
  readonly clientOrganizationId: string;
  /** The offer: it fixes the provider, the region, the specs and the nodes. */
  readonly planId: string;
  /**
   * The region to place the VM in: one the plan sells in, whose nodes of the plan are the candidates.
   * Left out, the plan's only region, or any node of the plan when it sells in several.
   */
  readonly regionId?: string | undefined;
  /** The id of the VM the claim is for; claiming it again answers the same claim. */
  readonly claimId: string;
  /** An IPv6 address (or prefix) as well, when the node's network has one free; true when left out. */
  readonly wantIpv6?: boolean | undefined;
  /** Only these of the plan's nodes may take the VM (those with a template for the ordered distro, say). */
  readonly onlyNodeIds?: readonly string[] | undefined;
}

/** What guests NodeRings did not create hold where the VM goes: VMIDs on its platform, MACs on its network. */
interface ForeignHoldings {
  readonly vmids: readonly number[];
  readonly macAddresses: readonly string[];
}

/** How a placed claim is stored: a new claim is inserted; a moved one gives back what it held first. */
interface Take {
  /** Before the first address is taken: a moving claim's addresses are free for the new node's network. */
  readonly beforeAllocating: (tx: Tx) => Promise<unknown>;
  readonly store: (tx: Tx, claim: NewVmClaim) => Promise<VmClaim>;
}

interface Candidate {
  readonly nodeId: string;
  readonly assignedVms: number;
  readonly node: CandidateNode & { readonly network: NonNullable<CandidateNode['network']> };
}

/**
 * Places a VM and takes what it needs, all in one transaction (DESIGN §4 invariants 1 and 2): capacity on
 * a node of the plan, an IPv4 address (and IPv6), a MAC and a VMID. Race-free by locks taken in one order
 * by every claim: the plan's nodes (by id), the network's prefixes (IPAM), the chosen node's platform, the
 * MAC prefix (a move locks its own claim's row before them). Under them each check sees every claim
 * committed before it, and the partial unique indexes are the database's own backstop. The order
 * flow calls `claim` and `release`; a retried order, `moveAnd`.
 */
export class ClaimService {
  constructor(
    private readonly deps: {
      readonly claims: Pick<
        ClaimRepository,
        | 'transaction'
        | 'claimTransaction'
        | 'findPlan'
        | 'lockNodes'
        | 'activeUsage'
        | 'lastNodeOf'
        | 'moveCursor'
        | 'lockPlatform'
        | 'claimedVmids'
        | 'foreignVmids'
        | 'lockMacAddressPrefix'
        | 'activeMacAddresses'
        | 'foreignMacAddresses'
        | 'insert'
        | 'move'
        | 'lockActive'
        | 'findById'
        | 'markReleased'
      >;
      readonly policies: Pick<PlacementPolicyRepository, 'find'>;
      readonly addresses: Pick<IpAllocationService, 'allocateAddress' | 'releaseClaimAddresses'>;
      /** RANDOM's source: a uniformly random integer from 0 up to, not including, `bound`. */
      readonly randomIndex: (bound: number) => number;
      /** Told the provider organisation after a claim or release commits: what it can sell has changed. */
      readonly capacityChanged?: (providerOrganizationId: string) => void;
    },
  ) {}

  /**
   * The claim, placed by the provider's policy among the plan's nodes that qualify. RESOURCE_EXHAUSTED
   * (`PlacementExhaustedError`, with each node's reasons) when none can take the VM; ABORTED when a
   * concurrent claim won a race the locks do not cover (a deadlock across networks, the same claim id
   * twice): nothing was taken, and the claim can be retried whole.
   */
  claim(request: ClaimRequest): Promise<VmClaim> {
    return this.claimAnd(request, (_tx, claim) => Promise.resolve(claim));
  }

  /**
   * The claim, then `record` in the same transaction (the order writes its VM there): both commit or
   * neither does. Errors as `claim`; a unique violation in `record` is reported as ABORTED too.
   */
  claimAnd<T>(request: ClaimRequest, record: (tx: Tx, claim: VmClaim) => Promise<T>): Promise<T> {
    return this.#inTransaction(request, (tx) => this.#claim(tx, request), record);
  }

  /**
   * Moves the active claim `request.claimId` to another of the plan's nodes (an order that failed on its
   * node, retried there), then `record` in the same transaction. Placed as `claim`
   * places, among `request.onlyNodeIds` less the node it is on; what it held (capacity, VMID, MAC,
   * addresses) is given back in the transaction that takes what the new node and its network give, so
   * the claim never holds both, nor neither. The customer keeps the sizes bought, whatever the plan says
   * now. Errors as `claim`; FAILED_PRECONDITION when the claim is not active.
   */
  moveAnd<T>(request: ClaimRequest, record: (tx: Tx, claim: VmClaim) => Promise<T>): Promise<T> {
    return this.#inTransaction(request, (tx) => this.#move(tx, request), record);
  }

  async #inTransaction<T>(
    request: ClaimRequest,
    place: (tx: Tx) => Promise<VmClaim>,
    record: (tx: Tx, claim: VmClaim) => Promise<T>,
  ): Promise<T> {
    let provider = '';
    const result = await this.deps.claims.claimTransaction(request, async (tx) => {
      const claim = await place(tx);
      provider = claim.providerOrganizationId;
      return record(tx, claim);
    });
    this.deps.capacityChanged?.(provider);
    return result;
  }

  /**
   * Gives back everything the claim holds: its addresses, MAC, VMID and capacity are free for the next
   * claim once this commits. Releasing a released claim changes nothing; an unknown one is NOT_FOUND.
   */
  async release(claimId: string): Promise<VmClaim> {
    const released = await this.deps.claims.transaction(async (tx) => {
      await this.deps.claims.markReleased(tx, claimId);
      const claim = await this.deps.claims.findById(tx, claimId);
      if (claim === undefined) throw NotFoundError.of('VM claim', claimId);
      await this.deps.addresses.releaseClaimAddresses(tx, claimId);
      return claim;
    });
    this.deps.capacityChanged?.(released.providerOrganizationId);
    return released;
  }

  async #claim(tx: Tx, request: ClaimRequest): Promise<VmClaim> {
    const existing = await this.deps.claims.findById(tx, request.claimId);
    if (existing !== undefined) return sameClaim(existing, request);
    const plan = await this.deps.claims.findPlan(tx, request.planId);
    if (plan === undefined) throw NotFoundError.of('Plan', request.planId);
    return this.#place(tx, request, plan, {
      beforeAllocating: () => Promise.resolve(),
      store: (t, claim) => this.deps.claims.insert(t, claim),
    });
  }

  async #move(tx: Tx, request: ClaimRequest): Promise<VmClaim> {
    const { claimId } = request;
    const existing = (await this.deps.claims.lockActive(tx, claimId))
      ? await this.deps.claims.findById(tx, claimId)
      : undefined;
    if (existing === undefined)
      throw new FailedPreconditionError(`Claim ${claimId} is not active; only an active claim moves.`);
    if (existing.planId !== request.planId || existing.clientOrganizationId !== request.clientOrganizationId)
      throw new AlreadyExistsError(`Claim ${claimId} exists for another plan or organisation.`);
    const plan = await this.deps.claims.findPlan(tx, request.planId);
    if (plan === undefined) throw NotFoundError.of('Plan', request.planId);
    const bought: ClaimPlan = {
      ...plan,
      revision: existing.planRevision,
      vcpus: existing.vcpus,
      ramGb: existing.ramGb,
      diskGb: existing.diskGb,
    };
    const elsewhere = (request.onlyNodeIds ?? plan.nodes.map((n) => n.id)).filter(
      (id) => id !== existing.nodeId,
    );
    return this.#place(tx, { ...request, onlyNodeIds: elsewhere }, bought, {
      beforeAllocating: (t) => this.deps.addresses.releaseClaimAddresses(t, claimId),
      store: async (t, claim) => {
        if (!(await this.deps.claims.move(t, claim)))
          throw new FailedPreconditionError(`Claim ${claimId} is not active; only an active claim moves.`);
        return { ...claim, status: 'ACTIVE', createdAt: existing.createdAt, releasedAt: undefined };
      },
    });
  }

  async #place(tx: Tx, request: ClaimRequest, plan: ClaimPlan, take: Take): Promise<VmClaim> {
    if (request.regionId !== undefined && !plan.regionIds.includes(request.regionId))
      throw InvalidArgumentError.field('regionId', `is not a region plan ${plan.id} sells in`);
    const regionId = request.regionId ?? (plan.regionIds.length === 1 ? plan.regionIds[0] : undefined);
    const policy = await this.deps.policies.find(plan.organizationId, tx);
    const strategy =
      policy === undefined
        ? DEFAULT_NODE_PLACEMENT_STRATEGY
        : regionId === undefined
          ? policy.defaultStrategy
          : strategyForRegion(policy, regionId);

    const only = request.onlyNodeIds === undefined ? undefined : new Set(request.onlyNodeIds);
    const nodeIds = plan.nodes
      .filter((n) => (regionId === undefined || n.regionId === regionId) && (only?.has(n.id) ?? true))
      .map((n) => n.id);
    const nodes = await this.deps.claims.lockNodes(tx, plan.organizationId, nodeIds);
    const usage = await this.deps.claims.activeUsage(
      tx,
      nodes.map((n) => n.id),
    );
    const requested = requestedAmounts(plan);
    const refusals: NodeRefusal[] = [];
    let candidates: Candidate[] = [];
    for (const node of nodes) {
      const reasons = nodeRefusalReasons(node, usage.get(node.id), requested);
      if (reasons.length > 0 || node.network === undefined)
        refusals.push({ nodeId: node.id, nodeName: node.name, reasons });
      else
        candidates.push({
          nodeId: node.id,
          assignedVms: usage.get(node.id)?.vms ?? 0,
          node: { ...node, network: node.network },
        });
    }
    await take.beforeAllocating(tx);
    const context = {
      stableOrder: [...nodes].sort(oldestFirst).map((n) => n.id),
      lastNodeId:
        strategy === 'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN'
          ? await this.deps.claims.lastNodeOf(tx, plan.id)
          : undefined,
      randomIndex: this.deps.randomIndex,
    };
    for (;;) {
      const chosen = chooseNode(strategy, candidates, context);
      if (chosen === undefined) throw new PlacementExhaustedError(plan.id, refusals);
      // What foreign guests hold is the sync's report, which no lock of ours guards: it is read before the
      // first lock other claims share, to keep their turns short.
      const foreign = await this.#foreignHoldings(tx, chosen.node);
      const ipv4 = await this.#allocate(tx, plan, chosen, request.claimId, 'ipv4');
      if (ipv4 !== undefined)
        return this.#complete(tx, { request, plan, strategy, chosen, ipv4, foreign, take });
      // Every candidate on the same network is out of addresses too; the others may still place the VM.
      const network = chosen.node.network;
      for (const c of candidates.filter((c) => c.node.network.id === network.id))
        refusals.push({
          nodeId: c.nodeId,
          nodeName: c.node.name,
          reasons: [`its network ${network.name} (${network.id}) has no free IPv4 address`],
        });
      candidates = candidates.filter((c) => c.node.network.id !== network.id);
    }
  }

  async #complete(
    tx: Tx,
    placed: {
      request: ClaimRequest;
      plan: ClaimPlan;
      strategy: NodePlacementStrategy;
      chosen: Candidate;
      ipv4: ClaimAddress;
      foreign: ForeignHoldings;
      take: Take;
    },
  ): Promise<VmClaim> {
    const { request, plan, chosen, ipv4, foreign, take } = placed;
    const { node } = chosen;
    if (placed.strategy === 'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN')
      await this.deps.claims.moveCursor(tx, plan.id, node.id);
    const ipv6 =
      request.wantIpv6 === false
        ? undefined
        : await this.#allocate(tx, plan, chosen, request.claimId, 'ipv6');
    await this.deps.claims.lockPlatform(tx, node.platformId);
    const claimed = await this.deps.claims.claimedVmids(tx, node.platformId, node.vmidSeed);
    const vmid = nextVmid(node.vmidSeed, [...claimed, ...foreign.vmids]);
    if (vmid === undefined)
      throw new ResourceExhaustedError(
        `Platform ${node.platformId} has no free VMID from ${node.vmidSeed} up.`,
      );
    // Last: MACs are unique across every seller, so this lock is the one shared most widely.
    const macAddress = await this.#nextMacAddress(tx, macAddressPrefixOf(node), foreign.macAddresses);
    const claim = {
      id: request.claimId,
      clientOrganizationId: request.clientOrganizationId,
      providerOrganizationId: plan.organizationId,
      planId: plan.id,
      planRevision: plan.revision,
      nodeId: node.id,
      platformId: node.platformId,
      vcpus: plan.vcpus,
      ramGb: plan.ramGb,
      diskGb: plan.diskGb,
      vmid,
      macAddress,
      ipv4,
      ipv6,
    };
    return take.store(tx, claim);
  }

  async #allocate(
    tx: Tx,
    plan: ClaimPlan,
    chosen: Candidate,
    claimId: string,
    family: 'ipv4' | 'ipv6',
  ): Promise<ClaimAddress | undefined> {
    const allocation = await this.deps.addresses.allocateAddress(tx, {
      organizationId: plan.organizationId,
      networkId: chosen.node.network.id,
      family,
      claimId,
    });
    return (
      allocation && {
        allocationId: allocation.id,
        address: formatIpAddress(allocation.address),
        allocatedCidr: allocation.allocatedCidr,
      }
    );
  }

  async #foreignHoldings(tx: Tx, node: Candidate['node']): Promise<ForeignHoldings> {
    return {
      vmids: await this.deps.claims.foreignVmids(tx, node.platformId, node.vmidSeed),
      macAddresses: await this.deps.claims.foreignMacAddresses(tx, node.network.id),
    };
  }

  /** The lowest suffix under the prefix that no active claim holds, nor a foreign guest (`foreign`). */
  async #nextMacAddress(tx: Tx, prefix: string, foreign: readonly string[]): Promise<string> {
    await this.deps.claims.lockMacAddressPrefix(tx, prefix);
    const held = [...(await this.deps.claims.activeMacAddresses(tx, prefix)), ...foreign];
    const used = held.flatMap((mac) => {
      const suffix = macAddressSuffix(prefix, mac);
      return suffix === undefined ? [] : [suffix];
    });
    const suffix = nextMacAddressSuffix(used);
    if (suffix === undefined)
      throw new ResourceExhaustedError(`Every MAC address under ${prefix} is in use.`);
    return macAddressOf(prefix, suffix);
  }
}

/** Claiming an id again answers the claim it already has, if it is the same order's. */
function sameClaim(existing: VmClaim, request: ClaimRequest): VmClaim {
  if (existing.planId !== request.planId || existing.clientOrganizationId !== request.clientOrganizationId)
    throw new AlreadyExistsError(`Claim ${request.claimId} exists for another plan or organisation.`);
  if (existing.status !== 'ACTIVE')
    throw new FailedPreconditionError(`Claim ${request.claimId} was released; a new VM needs a new id.`);
  return existing;
}

function oldestFirst(a: CandidateNode, b: CandidateNode): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The node's own MAC prefix when its provider changed it from Proxmox's default (a node-level setting,
 * seed 003), the network's otherwise: the most specific setting wins.
 */
function macAddressPrefixOf(node: Candidate['node']): string {
  const own = normalizeMacAddressPrefix(node.macAddressPrefix);
  return own === DEFAULT_MAC_ADDRESS_PREFIX ? normalizeMacAddressPrefix(node.network.macAddressPrefix) : own;
}
