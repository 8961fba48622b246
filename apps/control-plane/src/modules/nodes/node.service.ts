import {
  findCity,
  findDatacenter,
  InvalidArgumentError,
  nodeNameProblem,
  nodeSettingsViolations,
  normalizeMacAddressPrefix,
  NotFoundError,
  type FieldViolation,
  withNodeSettingDefaults,
  type NodeSettings,
  type NodeSettingsInput,
} from '@noderings/domain';

import type { Page, PageResult } from '../../http/pagination.js';
import type { ProxmoxInventoryService } from '../proxmox-inventory/index.js';
import type { Region } from '../regions/index.js';
import type { Node, NodeChanges, NodeFilter, NodeRegionRecord, NodeRepository } from './node.repository.js';

export type NodeInput = NodeSettingsInput & {
  readonly name: string;
  readonly platformId: string;
  readonly regionId: string;
  readonly maintenanceMode?: boolean | undefined;
};

export interface ListedNode {
  readonly node: Node;
  /** Present when the caller asked to expand the region. */
  readonly region?: Region;
}

export class NodeService {
  constructor(
    private readonly deps: {
      readonly nodes: Pick<
        NodeRepository,
        | 'list'
        | 'listWithRegions'
        | 'findById'
        | 'platformExists'
        | 'regionExists'
        | 'insert'
        | 'update'
        | 'delete'
      >;
      /** Checks names against what the platform's Proxmox reported. */
      readonly proxmox: Pick<ProxmoxInventoryService, 'checkNodeName'>;
    },
  ) {}

  async list(
    organizationId: string,
    filter: NodeFilter,
    page: Page,
    expand: { readonly region: boolean },
  ): Promise<PageResult<ListedNode>> {
    if (!expand.region) return this.deps.nodes.list(organizationId, filter, page).then(wrapNodes);
    const result = await this.deps.nodes.listWithRegions(organizationId, filter, page);
    return {
      totalCount: result.totalCount,
      items: result.items.map(({ node, region }) => ({ node, region: resolveRegion(region) })),
    };
  }

  async get(organizationId: string, id: string): Promise<Node> {
    const node = await this.deps.nodes.findById(organizationId, id);
    if (node === undefined) throw NotFoundError.of('Node', id);
    return node;
  }

  async create(organizationId: string, input: NodeInput): Promise<Node> {
    const { name, platformId, regionId, maintenanceMode = false, ...given } = input;
    const settings = normalized(withNodeSettingDefaults(given));
    refuseViolations(name, settings);
    const [platformFound, regionFound] = await Promise.all([
      this.deps.nodes.platformExists(organizationId, platformId),
      this.deps.nodes.regionExists(organizationId, regionId),
    ]);
    if (!platformFound) throw NotFoundError.of('Platform', platformId);
    if (!regionFound) throw NotFoundError.of('Region', regionId);
    await this.deps.proxmox.checkNodeName(organizationId, platformId, name);
    return await this.deps.nodes.insert({
      ...settings,
      organizationId,
      platformId,
      regionId,
      name,
      maintenanceMode,
    });
  }

  /** Fields left out keep their values; the rules are checked on the node as it would be afterwards. */
  async update(organizationId: string, id: string, changes: NodeChanges): Promise<Node> {
    const { regionId } = changes;
    if (regionId !== undefined && !(await this.deps.nodes.regionExists(organizationId, regionId)))
      throw NotFoundError.of('Region', regionId);
    const wanted = definedOnly(changes);
    if (Object.keys(wanted).length === 0) return this.get(organizationId, id);
    if (wanted.name !== undefined) {
      const current = await this.get(organizationId, id);
      if (current.name !== wanted.name)
        await this.deps.proxmox.checkNodeName(organizationId, current.platformId, wanted.name);
    }
    const updated = await this.deps.nodes.update(organizationId, id, (current) => {
      const next = { ...current, ...wanted };
      const settings = normalized(next);
      refuseViolations(next.name, settings);
      return { ...next, ...settings };
    });
    if (updated === undefined) throw NotFoundError.of('Node', id);
    return updated;
  }

  async delete(organizationId: string, id: string): Promise<void> {
    const deleted = await this.deps.nodes.delete(organizationId, id);
    if (!deleted) throw NotFoundError.of('Node', id);
  }
}

function wrapNodes(result: PageResult<Node>): PageResult<ListedNode> {
  return { totalCount: result.totalCount, items: result.items.map((node) => ({ node })) };
}

function definedOnly<T extends object>(values: T): { -readonly [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as {
    -readonly [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

function normalized(settings: NodeSettings): NodeSettings {
  return { ...settings, macAddressPrefix: normalizeMacAddressPrefix(settings.macAddressPrefix) };
}

function refuseViolations(name: string, settings: NodeSettings): void {
  const nameProblem = nodeNameProblem(name);
  const violations: FieldViolation[] = [
    ...(nameProblem === undefined ? [] : [{ field: 'name', description: nameProblem }]),
    ...nodeSettingsViolations(settings),
  ];
  if (violations.length === 0) return;
  throw new InvalidArgumentError(
    violations.map((v) => `${v.field}: ${v.description}`).join('; '),
    violations,
  );
}

/** The same resolution the regions module applies, for regions read in the node query. */
function resolveRegion(record: NodeRegionRecord): Region {
  const city = findCity(record.cityId);
  const datacenter = findDatacenter(record.datacenterId);
  if (city === undefined || datacenter === undefined)
    throw new Error(`region ${record.id} points outside the catalogue`);
  return {
    id: record.id,
    organizationId: record.organizationId,
    city,
    datacenter,
    createdAt: record.createdAt,
  };
}
