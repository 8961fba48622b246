import { isDistro, type Distro } from '@noderings/domain';
import { sql } from 'kysely';

import type { Db } from '../../db/database.js';
import { translateViolations, type ViolationMeanings } from '../../db/postgres-error.js';
import {
  distroTemplateTaken,
  vmidTemplateTaken,
  vmTemplateInUse,
  vmTemplateReferenceGone,
} from './vm-template.errors.js';

/** A Proxmox template VM on one node, which orders for its distro clone. */
export interface VmTemplate {
  readonly id: string;
  readonly organizationId: string;
  readonly nodeId: string;
  readonly nodeName: string;
  readonly platformId: string;
  readonly platformName: string;
  readonly cloudInitTemplateId: string;
  readonly name: string;
  readonly distro: Distro;
  /** The template VM's Proxmox VMID. */
  readonly templateVmid: number;
  readonly proxmoxCpuType: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export type VmTemplateFields = Pick<
  VmTemplate,
  'name' | 'distro' | 'templateVmid' | 'cloudInitTemplateId' | 'proxmoxCpuType'
>;

export interface VmTemplateFilter {
  /** A piece of the template's or its node's name, matched case-insensitively. */
  readonly search?: string | undefined;
  readonly nodeId?: string | undefined;
  readonly platformId?: string | undefined;
  readonly distro?: Distro | undefined;
}

/** The unique constraints (migration 0004), so a refusal can say which rule the template broke. */
const ONE_TEMPLATE_PER_DISTRO = 'vm_templates_node_distro_key';
const ONE_TEMPLATE_PER_VMID = 'vm_templates_node_vmid_key';

/** What a write's constraint violations mean; `nodeName` finds the template's node for the message. */
function writeViolations(nodeName: () => Promise<string>, fields: VmTemplateFields): ViolationMeanings {
  return {
    unique: {
      [ONE_TEMPLATE_PER_DISTRO]: async () => distroTemplateTaken(await nodeName(), fields.distro),
      [ONE_TEMPLATE_PER_VMID]: async () => vmidTemplateTaken(await nodeName(), fields.templateVmid),
    },
    foreignKey: vmTemplateReferenceGone,
  };
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Node order: by name (byte order, whatever the database's locale), then id. */
const NODE_ORDER = sql`nodes.name COLLATE "C"`;

/** Every query is scoped to one organisation: another tenant's template or node is simply not found. */
export class VmTemplateRepository {
  constructor(private readonly db: Db) {}

  private joined(organizationId: string) {
    return this.db
      .selectFrom('vm_templates')
      .innerJoin('nodes', 'nodes.id', 'vm_templates.node_id')
      .innerJoin('platforms', 'platforms.id', 'nodes.platform_id')
      .where('vm_templates.organization_id', '=', organizationId);
  }

  private filtered(organizationId: string, filter: VmTemplateFilter) {
    let query = this.joined(organizationId);
    if (filter.nodeId !== undefined) query = query.where('vm_templates.node_id', '=', filter.nodeId);
    if (filter.platformId !== undefined) query = query.where('nodes.platform_id', '=', filter.platformId);
    if (filter.distro !== undefined) query = query.where('vm_templates.distro', '=', filter.distro);
    const search = filter.search?.trim();
    if (search !== undefined && search !== '') {
      const pattern = likePattern(search);
      query = query.where((eb) =>
        eb.or([eb('vm_templates.name', 'ilike', pattern), eb('nodes.name', 'ilike', pattern)]),
      );
    }
    return query;
  }

  private selected(organizationId: string, filter: VmTemplateFilter) {
    return this.filtered(organizationId, filter).select([
      'vm_templates.id',
      'vm_templates.organization_id',
      'vm_templates.node_id',
      'nodes.name as node_name',
      'nodes.platform_id',
      'platforms.name as platform_name',
      'vm_templates.cloud_init_template_id',
      'vm_templates.name',
      'vm_templates.distro',
      'vm_templates.template_vmid',
      'vm_templates.proxmox_cpu_type',
      'vm_templates.created_at',
      'vm_templates.updated_at',
    ]);
  }

  /** How many matching templates each node has, nodes in list order: what pages are cut from. */
  async countsByNode(
    organizationId: string,
    filter: VmTemplateFilter,
  ): Promise<{ nodeId: string; count: number }[]> {
    const rows = await this.filtered(organizationId, filter)
      .select(['vm_templates.node_id', 'nodes.name'])
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .groupBy(['vm_templates.node_id', 'nodes.name'])
      .orderBy(NODE_ORDER)
      .orderBy('vm_templates.node_id')
      .execute();
    return rows.map((r) => ({ nodeId: r.node_id, count: Number(r.n) }));
  }

  /** The matching templates of these nodes, in list order: by node, then distro. */
  async listOnNodes(
    organizationId: string,
    filter: VmTemplateFilter,
    nodeIds: readonly string[],
  ): Promise<VmTemplate[]> {
    if (nodeIds.length === 0) return [];
    const rows = await this.selected(organizationId, filter)
      .where('vm_templates.node_id', 'in', nodeIds)
      .orderBy(NODE_ORDER)
      .orderBy('vm_templates.node_id')
      .orderBy('vm_templates.distro')
      .execute();
    return rows.map(toVmTemplate);
  }

  async findById(organizationId: string, id: string): Promise<VmTemplate | undefined> {
    const row = await this.selected(organizationId, {}).where('vm_templates.id', '=', id).executeTakeFirst();
    return row && toVmTemplate(row);
  }

  async insert(organizationId: string, nodeId: string, fields: VmTemplateFields, now: Date): Promise<string> {
    const row = await translateViolations(
      this.db
        .insertInto('vm_templates')
        .values({
          ...toColumns(fields),
          organization_id: organizationId,
          node_id: nodeId,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
      writeViolations(() => this.#nodeName(organizationId, nodeId), fields),
    );
    return row.id;
  }

  async #nodeName(organizationId: string, nodeId: string): Promise<string> {
    const row = await this.db
      .selectFrom('nodes')
      .select('name')
      .where('organization_id', '=', organizationId)
      .where('id', '=', nodeId)
      .executeTakeFirst();
    return row?.name ?? '';
  }

  /** False when the template does not exist in this organisation. */
  async update(organizationId: string, id: string, fields: VmTemplateFields, now: Date): Promise<boolean> {
    const result = await translateViolations(
      this.db
        .updateTable('vm_templates')
        .set({ ...toColumns(fields), updated_at: now })
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst(),
      writeViolations(async () => (await this.findById(organizationId, id))?.nodeName ?? '', fields),
    );
    return result.numUpdatedRows > 0n;
  }

  /** False when the template does not exist in this organisation. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const result = await translateViolations(
      this.db
        .deleteFrom('vm_templates')
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst(),
      { foreignKey: vmTemplateInUse },
    );
    return result.numDeletedRows > 0n;
  }
}

function toColumns(f: VmTemplateFields) {
  return {
    name: f.name,
    distro: f.distro,
    template_vmid: f.templateVmid,
    cloud_init_template_id: f.cloudInitTemplateId,
    proxmox_cpu_type: f.proxmoxCpuType,
  };
}

interface VmTemplateRow {
  id: string;
  organization_id: string;
  node_id: string;
  node_name: string;
  platform_id: string;
  platform_name: string;
  cloud_init_template_id: string;
  name: string;
  distro: string;
  template_vmid: number;
  proxmox_cpu_type: string;
  created_at: Date;
  updated_at: Date;
}

function toVmTemplate(r: VmTemplateRow): VmTemplate {
  if (!isDistro(r.distro)) throw new Error(`vm_templates.distro holds an unknown value: ${r.distro}`);
  return {
    id: r.id,
    organizationId: r.organization_id,
    nodeId: r.node_id,
    nodeName: r.node_name,
    platformId: r.platform_id,
    platformName: r.platform_name,
    cloudInitTemplateId: r.cloud_init_template_id,
    name: r.name,
    distro: r.distro,
    templateVmid: r.template_vmid,
    proxmoxCpuType: r.proxmox_cpu_type,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
