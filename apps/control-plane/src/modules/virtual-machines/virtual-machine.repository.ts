import { sql, type Selectable, type Transaction } from 'kysely';

import { newGeneration } from '../../db/new-generation.js';
import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import type { Database, VmDesiredState, VmPowerState } from '../../db/schema.js';
import type { Page, PageResult } from '../../http/pagination.js';

type Tx = Transaction<Database>;

/** Whose VMs a read may see: the customer who ordered them, or the provider they run on. */
export type VmScope = { readonly clientOrganizationId: string } | { readonly providerOrganizationId: string };

export interface VirtualMachineRecord {
  readonly id: string;
  readonly clientOrganizationId: string;
  readonly providerOrganizationId: string;
  readonly providerName: string;
  readonly planId: string;
  readonly planCode: string;
  readonly planBillingType: string;
  readonly agentId: string;
  readonly nodeId: string | null;
  readonly regionCityId: string | null;
  readonly idempotencyKey: string;
  readonly requestFingerprint: string;
  readonly hostname: string;
  readonly distro: string;
  readonly tags: readonly string[];
  /** The ProxmoxVM spec as ordered (see order-spec.ts). */
  readonly spec: Readonly<Record<string, unknown>>;
  readonly desiredState: VmDesiredState;
  readonly desiredPowerState: VmPowerState;
  readonly rebootRequestedAt: Date | undefined;
  readonly generation: number;
  readonly dispatchedGeneration: number;
  readonly dispatchAttempts: number;
  readonly dispatchError: string;
  readonly observedPhase: string;
  readonly observedPowerState: string;
  readonly observedMessage: string;
  /** Why the order failed, in the provider's and Proxmox's words; never shown to the customer. */
  readonly failureDetail: string;
  /** Set when the order failed for good, until the customer deletes it: what it held is released. */
  readonly failedAt: Date | undefined;
  /** The nodes the order failed on; while its node is one of them, it waits to be placed on another. */
  readonly failedNodeIds: readonly string[];
  readonly observedAt: Date | undefined;
  /** The guest's power state as the hypervisor's metrics last reported it, and when. */
  readonly reportedPowerState: VmPowerState | undefined;
  readonly reportedPowerStateAt: Date | undefined;
  readonly ipv4: string | undefined;
  readonly ipv6: string | undefined;
  readonly createdAt: Date;
  readonly deletedAt: Date | undefined;
}

export interface NewVirtualMachine {
  readonly id: string;
  readonly clientOrganizationId: string;
  readonly providerOrganizationId: string;
  readonly planId: string;
  readonly agentId: string;
  readonly nodeId: string;
  readonly idempotencyKey: string;
  readonly requestFingerprint: string;
  readonly hostname: string;
  readonly distro: string;
  readonly tags: readonly string[];
  readonly spec: Readonly<Record<string, unknown>>;
  readonly cloudInitCiphertext: string;
  /** What the cloud-init was compiled from, sealed (`CloudInitRequest`). */
  readonly cloudInitRequestCiphertext: string;
}

/** An order that failed on its node and waits to be placed on another. */
export interface MovingVm {
  readonly id: string;
  readonly clientOrganizationId: string;
  readonly planId: string;
  /** The region of the node it failed on: a retry stays in it. */
  readonly regionId: string;
  readonly distro: string;
  readonly failedNodeIds: readonly string[];
  readonly cloudInitRequestCiphertext: string;
}

/** Where a moved order now goes: written with the claim's move, in its transaction. */
export interface VmMove {
  readonly agentId: string;
  readonly nodeId: string;
  readonly spec: Readonly<Record<string, unknown>>;
  readonly cloudInitCiphertext: string;
}

/** What an order reads of the node the claim chose, to write the VM's spec. */
export interface OrderNode {
  readonly name: string;
  readonly agentId: string | null;
  readonly networkId: string | null;
  readonly vmStorage: string;
  readonly bridge: string;
  readonly device: string;
  readonly model: string;
  readonly vlan: number;
  readonly proxmoxCpuType: string;
}

export interface OrderTemplate {
  readonly templateVmid: number;
  readonly cloudInitTemplateId: string;
  readonly proxmoxCpuType: string;
}

/** The plan's tuning an order copies beside the sizes the claim holds. */
export interface OrderPlan {
  readonly cpuUnits: number;
  /** Cores; 0 is unlimited. */
  readonly cpuLimit: number;
  /** 0 is unlimited. */
  readonly networkRateLimitMbps: number;
}

export interface VmFilter {
  /** Deleted VMs are left out unless asked for. */
  readonly includeDeleted?: boolean | undefined;
}

export interface DesiredChange {
  readonly desiredState?: VmDesiredState;
  readonly desiredPowerState?: VmPowerState;
  readonly rebootRequestedAt?: Date;
  readonly tags?: readonly string[];
}

function baseQuery(db: Db | Tx) {
  return (
    db
      .selectFrom('virtual_machines as v')
      .innerJoin('plans as p', 'p.id', 'v.plan_id')
      .innerJoin('organizations as o', 'o.id', 'v.provider_organization_id')
      .innerJoin('vm_claims as c', 'c.id', 'v.id')
      // The VM's region is its node's: a plan may sell in several.
      .leftJoin('nodes as n', 'n.id', 'v.node_id')
      .leftJoin('regions as g', 'g.id', 'n.region_id')
      .leftJoin('ip_allocations as a4', 'a4.id', 'c.ipv4_allocation_id')
      .leftJoin('ip_allocations as a6', 'a6.id', 'c.ipv6_allocation_id')
      .selectAll('v')
      .select([
        'o.name as provider_name',
        'p.code as plan_code',
        'p.billing_type as plan_billing_type',
        'g.city_id as region_city_id',
        'a4.address as ipv4',
        'a6.address as ipv6',
      ])
  );
}

type Row = Selectable<Database['virtual_machines']> & {
  provider_name: string;
  plan_code: string;
  plan_billing_type: string;
  region_city_id: string | null;
  ipv4: string | null;
  ipv6: string | null;
};

function toRecord(r: Row): VirtualMachineRecord {
  return {
    id: r.id,
    clientOrganizationId: r.client_organization_id,
    providerOrganizationId: r.provider_organization_id,
    providerName: r.provider_name,
    planId: r.plan_id,
    planCode: r.plan_code,
    planBillingType: r.plan_billing_type,
    agentId: r.agent_id,
    nodeId: r.node_id,
    regionCityId: r.region_city_id,
    idempotencyKey: r.idempotency_key,
    requestFingerprint: r.request_fingerprint,
    hostname: r.hostname,
    distro: r.distro,
    tags: r.tags,
    spec: r.spec,
    desiredState: r.desired_state,
    desiredPowerState: r.desired_power_state,
    rebootRequestedAt: r.reboot_requested_at ?? undefined,
    generation: r.generation,
    dispatchedGeneration: r.dispatched_generation,
    dispatchAttempts: r.dispatch_attempts,
    dispatchError: r.dispatch_error,
    observedPhase: r.observed_phase,
    observedPowerState: r.observed_power_state,
    observedMessage: r.observed_message,
    failureDetail: r.failure_detail,
    failedAt: r.failed_at ?? undefined,
    failedNodeIds: r.failed_node_ids,
    observedAt: r.observed_at ?? undefined,
    reportedPowerState: r.reported_power_state ?? undefined,
    reportedPowerStateAt: r.reported_power_state_at ?? undefined,
    ipv4: r.ipv4 ?? undefined,
    ipv6: r.ipv6 ?? undefined,
    createdAt: r.created_at,
    deletedAt: r.deleted_at ?? undefined,
  };
}

function scoped<Q extends ReturnType<typeof baseQuery>>(query: Q, scope: VmScope): Q {
  return (
    'clientOrganizationId' in scope
      ? query.where('v.client_organization_id', '=', scope.clientOrganizationId)
      : query.where('v.provider_organization_id', '=', scope.providerOrganizationId)
  ) as Q;
}

export class VirtualMachineRepository {
  constructor(private readonly db: Db) {}

  async findByIdempotencyKey(
    clientOrganizationId: string,
    idempotencyKey: string,
  ): Promise<VirtualMachineRecord | undefined> {
    const row = await baseQuery(this.db)
      .where('v.client_organization_id', '=', clientOrganizationId)
      .where('v.idempotency_key', '=', idempotencyKey)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async find(scope: VmScope, id: string, db: Db | Tx = this.db): Promise<VirtualMachineRecord | undefined> {
    const row = await scoped(baseQuery(db).where('v.id', '=', id), scope).executeTakeFirst();
    return row && toRecord(row);
  }

  list(scope: VmScope, filter: VmFilter, page: Page): Promise<PageResult<VirtualMachineRecord>> {
    let query = scoped(baseQuery(this.db), scope);
    // A failed order stays listed, released, until its customer deletes it.
    if (filter.includeDeleted !== true)
      query = query.where((eb) => eb.or([eb('v.deleted_at', 'is', null), eb('v.failed_at', 'is not', null)]));
    return listPage(query.orderBy('v.created_at', 'desc').orderBy('v.id'), page, (rows) =>
      rows.map(toRecord),
    );
  }

  /** The plan's nodes that have a VM template of the distro (where an order for it may go), with the template's cloud-init. */
  /** The distro's templates on the plan's nodes in the region: where an order for it may be placed. */
  async templatesForOrder(
    planId: string,
    regionId: string,
    distro: string,
  ): Promise<{ nodeId: string; organizationId: string; cloudInitTemplateId: string }[]> {
    const rows = await this.db
      .selectFrom('plan_nodes as pn')
      .innerJoin('nodes as n', 'n.id', 'pn.node_id')
      .innerJoin('vm_templates as t', 't.node_id', 'pn.node_id')
      .select(['pn.node_id', 't.organization_id', 't.cloud_init_template_id'])
      .where('pn.plan_id', '=', planId)
      .where('n.region_id', '=', regionId)
      .where('t.distro', '=', distro)
      .execute();
    return rows.map((r) => ({
      nodeId: r.node_id,
      organizationId: r.organization_id,
      cloudInitTemplateId: r.cloud_init_template_id,
    }));
  }

  async orderNode(tx: Tx, nodeId: string): Promise<OrderNode | undefined> {
    const row = await tx
      .selectFrom('nodes as n')
      .innerJoin('platforms as pl', 'pl.id', 'n.platform_id')
      .select([
        'n.name',
        'pl.agent_id',
        'n.network_id',
        'n.vm_storage_destination',
        'n.network_bridge',
        'n.network_name',
        'n.network_model',
        'n.network_vlan_id',
        'n.proxmox_cpu_type',
      ])
      .where('n.id', '=', nodeId)
      .executeTakeFirst();
    return (
      row && {
        name: row.name,
        agentId: row.agent_id,
        networkId: row.network_id,
        vmStorage: row.vm_storage_destination,
        bridge: row.network_bridge,
        device: row.network_name,
        model: row.network_model,
        vlan: row.network_vlan_id,
        proxmoxCpuType: row.proxmox_cpu_type,
      }
    );
  }

  async orderTemplate(
    nodeId: string,
    distro: string,
    db: Db | Tx = this.db,
  ): Promise<OrderTemplate | undefined> {
    const row = await db
      .selectFrom('vm_templates')
      .select(['template_vmid', 'cloud_init_template_id', 'proxmox_cpu_type'])
      .where('node_id', '=', nodeId)
      .where('distro', '=', distro)
      .executeTakeFirst();
    return (
      row && {
        templateVmid: row.template_vmid,
        cloudInitTemplateId: row.cloud_init_template_id,
        proxmoxCpuType: row.proxmox_cpu_type,
      }
    );
  }

  async orderPlan(tx: Tx, planId: string): Promise<OrderPlan | undefined> {
    const row = await tx
      .selectFrom('plans')
      .select(['cpu_units', 'cpu_limit', 'network_rate_limit_mbps'])
      .where('id', '=', planId)
      .executeTakeFirst();
    return (
      row && {
        cpuUnits: row.cpu_units,
        cpuLimit: Number(row.cpu_limit),
        networkRateLimitMbps: row.network_rate_limit_mbps,
      }
    );
  }

  /** Each allocation's gateway (its prefix's). */
  async gateways(tx: Tx, allocationIds: readonly string[]): Promise<Map<string, string>> {
    if (allocationIds.length === 0) return new Map();
    const rows = await tx
      .selectFrom('ip_allocations as a')
      .innerJoin('ipam_prefixes as p', 'p.id', 'a.prefix_id')
      .select(['a.id', 'p.gateway'])
      .where('a.id', 'in', allocationIds)
      .execute();
    return new Map(rows.map((r) => [r.id, r.gateway]));
  }

  async dnsServers(tx: Tx, networkId: string): Promise<string[]> {
    const row = await tx
      .selectFrom('ipam_networks')
      .select('dns_servers')
      .where('id', '=', networkId)
      .executeTakeFirst();
    return row?.dns_servers ?? [];
  }

  async insert(tx: Tx, vm: NewVirtualMachine): Promise<void> {
    await tx
      .insertInto('virtual_machines')
      .values({
        id: vm.id,
        client_organization_id: vm.clientOrganizationId,
        provider_organization_id: vm.providerOrganizationId,
        plan_id: vm.planId,
        agent_id: vm.agentId,
        node_id: vm.nodeId,
        idempotency_key: vm.idempotencyKey,
        request_fingerprint: vm.requestFingerprint,
        hostname: vm.hostname,
        distro: vm.distro,
        tags: [...vm.tags],
        spec: JSON.stringify(vm.spec),
        cloud_init_ciphertext: vm.cloudInitCiphertext,
        cloud_init_request_ciphertext: vm.cloudInitRequestCiphertext,
        updated_at: sql<Date>`now()`,
      })
      .execute();
  }

  /** The VM if it failed on its node and waits to be placed on another, not yet finished nor deleted. */
  async findMoving(id: string): Promise<MovingVm | undefined> {
    const row = await this.db
      .selectFrom('virtual_machines as v')
      .innerJoin('nodes as n', 'n.id', 'v.node_id')
      .select([
        'v.id',
        'v.client_organization_id',
        'v.plan_id',
        'n.region_id',
        'v.distro',
        'v.failed_node_ids',
        'v.cloud_init_request_ciphertext',
      ])
      .where('v.id', '=', id)
      .where(sql<boolean>`v.node_id = ANY(v.failed_node_ids)`)
      .where('v.desired_state', '=', 'PRESENT')
      .where('v.failed_at', 'is', null)
      .where('v.deleted_at', 'is', null)
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        clientOrganizationId: row.client_organization_id,
        planId: row.plan_id,
        regionId: row.region_id,
        distro: row.distro,
        failedNodeIds: row.failed_node_ids,
        cloudInitRequestCiphertext: row.cloud_init_request_ciphertext,
      }
    );
  }

  /**
   * The moved order's new node, spec and cloud-init, and a generation the dispatcher applies; what the
   * failed node's ProxmoxVM reported is forgotten. Only while the VM still waits to move; false otherwise.
   */
  async moveTo(tx: Tx, id: string, move: VmMove): Promise<boolean> {
    const result = await tx
      .updateTable('virtual_machines')
      .set({
        agent_id: move.agentId,
        node_id: move.nodeId,
        spec: JSON.stringify(move.spec),
        cloud_init_ciphertext: move.cloudInitCiphertext,
        dispatch_error: '',
        observed_phase: '',
        observed_power_state: '',
        observed_message: '',
        observed_conditions: '[]',
        observed_generation: 0,
        observed_at: null,
        ...newGeneration(),
      })
      .where('id', '=', id)
      .where(sql<boolean>`node_id = ANY(failed_node_ids)`)
      .where('desired_state', '=', 'PRESENT')
      .where('failed_at', 'is', null)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Records what the customer now wants and counts it as a new generation, which the dispatcher applies.
   * Only a VM the customer owns and that is not being deleted changes; false otherwise.
   */
  /**
   * Records a reinstall: the new cloud-init and spec, and a generation that asks the dispatcher to
   * recreate the guest. Only a VM the customer owns and that is not being deleted changes.
   */
  /** The customer deleted a failed order: it is no longer shown as failed (and goes as any deletion). */
  async dismissFailure(clientOrganizationId: string, id: string): Promise<void> {
    await this.db
      .updateTable('virtual_machines')
      .set({ failed_at: null, updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('client_organization_id', '=', clientOrganizationId)
      .where('failed_at', 'is not', null)
      .execute();
  }

  async reinstall(
    clientOrganizationId: string,
    id: string,
    change: {
      readonly hostname: string;
      readonly distro: string;
      readonly spec: Readonly<Record<string, unknown>>;
      readonly cloudInitCiphertext: string;
      readonly cloudInitRequestCiphertext: string;
    },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('virtual_machines')
      .set({
        hostname: change.hostname,
        distro: change.distro,
        spec: JSON.stringify(change.spec),
        cloud_init_ciphertext: change.cloudInitCiphertext,
        cloud_init_request_ciphertext: change.cloudInitRequestCiphertext,
        ...newGeneration({ reinstall: true }),
      })
      .where('id', '=', id)
      .where('client_organization_id', '=', clientOrganizationId)
      .where('desired_state', '=', 'PRESENT')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async changeDesired(
    clientOrganizationId: string,
    id: string,
    change: DesiredChange,
    db: Db | Tx = this.db,
  ): Promise<boolean> {
    const result = await db
      .updateTable('virtual_machines')
      .set({
        ...(change.desiredState !== undefined && { desired_state: change.desiredState }),
        ...(change.desiredPowerState !== undefined && { desired_power_state: change.desiredPowerState }),
        ...(change.rebootRequestedAt !== undefined && { reboot_requested_at: change.rebootRequestedAt }),
        ...(change.tags !== undefined && { tags: [...change.tags] }),
        ...newGeneration(),
      })
      .where('id', '=', id)
      .where('client_organization_id', '=', clientOrganizationId)
      .where('desired_state', '=', 'PRESENT')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
