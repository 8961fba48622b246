import { DEFAULT_PROXMOX_CPU_TYPE, NotFoundError } from '@noderings/domain';

import type { Page, PageResult } from '../../http/pagination.js';
import type { CloudInitTemplateService } from '../cloud-init-templates/index.js';
import type { NodeService } from '../nodes/index.js';
import type { ProxmoxInventoryService } from '../proxmox-inventory/index.js';
import { groupPages } from './node-pages.js';
import type {
  VmTemplate,
  VmTemplateFields,
  VmTemplateFilter,
  VmTemplateRepository,
} from './vm-template.repository.js';

export type VmTemplateInput = Omit<VmTemplateFields, 'proxmoxCpuType'> & {
  readonly nodeId: string;
  readonly proxmoxCpuType?: string | undefined;
};

export type VmTemplateChanges = Partial<VmTemplateFields>;

export interface VmTemplatePage extends PageResult<VmTemplate> {
  readonly totalPages: number;
}

export class VmTemplateService {
  constructor(
    private readonly deps: {
      readonly vmTemplates: Pick<
        VmTemplateRepository,
        'countsByNode' | 'listOnNodes' | 'findById' | 'insert' | 'update' | 'delete'
      >;
      readonly nodes: Pick<NodeService, 'get'>;
      readonly cloudInitTemplates: Pick<CloudInitTemplateService, 'getOwn'>;
      /** Checks VMIDs against the templates the node's Proxmox reported. */
      readonly proxmox: Pick<ProxmoxInventoryService, 'checkTemplate'>;
      readonly now: () => Date;
    },
  ) {}

  /**
   * Pages never split one node's templates: they are cut between nodes, each page holding as many whole
   * nodes as fit in `pageSize` templates (a node with more than that gets a page to itself).
   */
  async list(organizationId: string, filter: VmTemplateFilter, page: Page): Promise<VmTemplatePage> {
    const counts = await this.deps.vmTemplates.countsByNode(organizationId, filter);
    const pages = groupPages(
      counts.map((c) => c.count),
      page.pageSize,
    );
    const window = pages[page.page];
    const items =
      window === undefined
        ? []
        : await this.deps.vmTemplates.listOnNodes(
            organizationId,
            filter,
            counts.slice(window.start, window.end).map((c) => c.nodeId),
          );
    return { items, totalCount: counts.reduce((sum, c) => sum + c.count, 0), totalPages: pages.length };
  }

  async get(organizationId: string, id: string): Promise<VmTemplate> {
    const template = await this.deps.vmTemplates.findById(organizationId, id);
    if (template === undefined) throw NotFoundError.of('VM template', id);
    return template;
  }

  async create(organizationId: string, input: VmTemplateInput): Promise<VmTemplate> {
    const { nodeId, ...given } = input;
    const fields: VmTemplateFields = {
      ...given,
      proxmoxCpuType: given.proxmoxCpuType ?? DEFAULT_PROXMOX_CPU_TYPE,
    };
    const node = await this.deps.nodes.get(organizationId, nodeId);
    await this.deps.cloudInitTemplates.getOwn(organizationId, fields.cloudInitTemplateId);
    await this.deps.proxmox.checkTemplate(organizationId, node, fields.templateVmid);
    const id = await this.deps.vmTemplates.insert(organizationId, nodeId, fields, this.deps.now());
    return this.get(organizationId, id);
  }

  /** Fields left out keep their values; the node cannot change (a template VM lives on one node). */
  async update(organizationId: string, id: string, changes: VmTemplateChanges): Promise<VmTemplate> {
    const current = await this.get(organizationId, id);
    const fields: VmTemplateFields = {
      name: changes.name ?? current.name,
      distro: changes.distro ?? current.distro,
      templateVmid: changes.templateVmid ?? current.templateVmid,
      cloudInitTemplateId: changes.cloudInitTemplateId ?? current.cloudInitTemplateId,
      proxmoxCpuType: changes.proxmoxCpuType ?? current.proxmoxCpuType,
    };
    if (changes.cloudInitTemplateId !== undefined)
      await this.deps.cloudInitTemplates.getOwn(organizationId, changes.cloudInitTemplateId);
    if (changes.templateVmid !== undefined && changes.templateVmid !== current.templateVmid) {
      await this.deps.proxmox.checkTemplate(
        organizationId,
        { platformId: current.platformId, name: current.nodeName },
        changes.templateVmid,
      );
    }
    const updated = await this.deps.vmTemplates.update(organizationId, id, fields, this.deps.now());
    if (!updated) throw NotFoundError.of('VM template', id);
    return this.get(organizationId, id);
  }

  async delete(organizationId: string, id: string): Promise<void> {
    const deleted = await this.deps.vmTemplates.delete(organizationId, id);
    if (!deleted) throw NotFoundError.of('VM template', id);
  }
}
