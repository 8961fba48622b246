import { sql, type Selectable } from 'kysely';

import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { listPage } from '../../db/list-page.js';
import { translateViolations } from '../../db/postgres-error.js';
import type { Page, PageResult } from '../../http/pagination.js';
import { duplicateNetworkName } from './network.errors.js';

/** The few fields of a node the IPAM pages show beside a network. */
export interface NetworkNode {
  readonly id: string;
  readonly name: string;
  readonly platformId: string;
  readonly regionId: string;
}

export interface Network {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  /** Canonical addresses. */
  readonly dnsServers: readonly string[];
  /** Upper case, like BC:24:11. */
  readonly macAddressPrefix: string;
  readonly nodes: readonly NetworkNode[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What a provider sets on a network. */
export interface NetworkFields {
  readonly name: string;
  readonly dnsServers: readonly string[];
  readonly macAddressPrefix: string;
}

/** Why assigning nodes did not happen; nothing is written unless every node can be assigned. */
export type NodeAssignment =
  | { readonly outcome: 'assigned'; readonly network: Network }
  | { readonly outcome: 'network-not-found' }
  | { readonly outcome: 'nodes-not-found'; readonly nodeIds: readonly string[] }
  | { readonly outcome: 'nodes-on-other-networks'; readonly nodes: readonly NetworkNode[] };

export type NetworkDeletion =
  | { readonly outcome: 'deleted' | 'not-found' }
  | { readonly outcome: 'in-use'; readonly nodeCount: number; readonly prefixCount: number };

type NetworkRow = Selectable<Database['ipam_networks']>;

function toNetwork(r: NetworkRow, nodes: readonly NetworkNode[]): Network {
  return {
    id: r.id,
    organizationId: r.organization_id,
    name: r.name,
    dnsServers: r.dns_servers,
    macAddressPrefix: r.mac_address_prefix,
    nodes,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toColumns(f: NetworkFields) {
  return { name: f.name, dns_servers: [...f.dnsServers], mac_address_prefix: f.macAddressPrefix };
}

/** Every query is scoped to one organisation: another tenant's network or node is simply not found. */
/** The network's unique name constraint (migration 0003). */
const NETWORK_NAME_CONSTRAINT = 'ipam_networks_name_key';

export class NetworkRepository {
  constructor(private readonly db: Db) {}

  async list(organizationId: string, page: Page): Promise<PageResult<Network>> {
    const base = this.db.selectFrom('ipam_networks').where('organization_id', '=', organizationId);
    return listPage(base.selectAll().orderBy('created_at').orderBy('id'), page, (rows) =>
      this.#withNodes(this.db, rows),
    );
  }

  async findById(organizationId: string, id: string): Promise<Network | undefined> {
    return this.#find(this.db, organizationId, id);
  }

  async insert(organizationId: string, fields: NetworkFields): Promise<Network> {
    const row = await translateViolations(
      this.db
        .insertInto('ipam_networks')
        .values({ ...toColumns(fields), organization_id: organizationId, updated_at: sql<Date>`now()` })
        .returningAll()
        .executeTakeFirstOrThrow(),
      { unique: { [NETWORK_NAME_CONSTRAINT]: () => duplicateNetworkName(fields.name) } },
    );
    return toNetwork(row, []);
  }

  /**
   * Reads the network under a row lock, asks `decide` for its next fields (it may throw to refuse them),
   * and writes them. Undefined when the network does not exist in this organisation.
   */
  async update(
    organizationId: string,
    id: string,
    decide: (current: Network) => NetworkFields,
  ): Promise<Network | undefined> {
    return this.db.transaction().execute(async (tx) => {
      const current = await this.#find(tx, organizationId, id, { lock: true });
      if (current === undefined) return undefined;
      const fields = decide(current);
      await translateViolations(
        tx
          .updateTable('ipam_networks')
          .set({ ...toColumns(fields), updated_at: sql<Date>`now()` })
          .where('id', '=', id)
          .execute(),
        { unique: { [NETWORK_NAME_CONSTRAINT]: () => duplicateNetworkName(fields.name) } },
      );
      return this.#find(tx, organizationId, id);
    });
  }

  /** Refused while nodes or prefixes still belong to the network; the row lock keeps the count true. */
  async delete(organizationId: string, id: string): Promise<NetworkDeletion> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx
        .selectFrom('ipam_networks')
        .select('id')
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (row === undefined) return { outcome: 'not-found' };
      const usage = await tx
        .selectNoFrom((eb) => [
          eb
            .selectFrom('nodes')
            .select((e) => e.fn.countAll<string>().as('n'))
            .where('network_id', '=', id)
            .as('nodes'),
          eb
            .selectFrom('ipam_prefixes')
            .select((e) => e.fn.countAll<string>().as('n'))
            .where('network_id', '=', id)
            .as('prefixes'),
        ])
        .executeTakeFirstOrThrow();
      const nodeCount = Number(usage.nodes);
      const prefixCount = Number(usage.prefixes);
      if (nodeCount > 0 || prefixCount > 0) return { outcome: 'in-use', nodeCount, prefixCount };
      await tx.deleteFrom('ipam_networks').where('id', '=', id).execute();
      return { outcome: 'deleted' };
    });
  }

  /**
   * Puts every node on the network, or none: a node on another network stays there (it has to be
   * unassigned first), one already on this network is left as it is.
   */
  async assignNodes(
    organizationId: string,
    networkId: string,
    nodeIds: readonly string[],
  ): Promise<NodeAssignment> {
    return this.db.transaction().execute(async (tx) => {
      const network = await tx
        .selectFrom('ipam_networks')
        .select('id')
        .where('organization_id', '=', organizationId)
        .where('id', '=', networkId)
        .forShare()
        .executeTakeFirst();
      if (network === undefined) return { outcome: 'network-not-found' };
      const unique = [...new Set(nodeIds)];
      const nodes = await tx
        .selectFrom('nodes')
        .select(['id', 'name', 'platform_id', 'region_id', 'network_id'])
        .where('organization_id', '=', organizationId)
        .where('id', 'in', unique)
        .orderBy('id')
        .forUpdate()
        .execute();
      const found = new Set(nodes.map((n) => n.id));
      const missing = unique.filter((id) => !found.has(id));
      if (missing.length > 0) return { outcome: 'nodes-not-found', nodeIds: missing };
      const elsewhere = nodes.filter((n) => n.network_id !== null && n.network_id !== networkId);
      if (elsewhere.length > 0) return { outcome: 'nodes-on-other-networks', nodes: elsewhere.map(toNode) };
      await tx
        .updateTable('nodes')
        .set({ network_id: networkId, updated_at: sql<Date>`now()` })
        .where('organization_id', '=', organizationId)
        .where('id', 'in', unique)
        .where('network_id', 'is', null)
        .execute();
      const assigned = await this.#find(tx, organizationId, networkId);
      if (assigned === undefined) throw new Error('the locked network vanished');
      return { outcome: 'assigned', network: assigned };
    });
  }

  /** The node's network; `node` undefined when the node does not exist in this organisation. */
  async networkOfNode(
    organizationId: string,
    nodeId: string,
  ): Promise<{ node: NetworkNode | undefined; network: Network | undefined }> {
    const node = await this.db
      .selectFrom('nodes')
      .select(['id', 'name', 'platform_id', 'region_id', 'network_id'])
      .where('organization_id', '=', organizationId)
      .where('id', '=', nodeId)
      .executeTakeFirst();
    if (node === undefined) return { node: undefined, network: undefined };
    const network =
      node.network_id === null ? undefined : await this.#find(this.db, organizationId, node.network_id);
    return { node: toNode(node), network };
  }

  /** False when the node does not exist in this organisation; a node on no network stays so. */
  async unassignNode(organizationId: string, nodeId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('nodes')
      .set({ network_id: null, updated_at: sql<Date>`now()` })
      .where('organization_id', '=', organizationId)
      .where('id', '=', nodeId)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async #find(
    db: Db,
    organizationId: string,
    id: string,
    options: { lock?: boolean } = {},
  ): Promise<Network | undefined> {
    const query = db
      .selectFrom('ipam_networks')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id);
    const row = await (options.lock === true ? query.forUpdate() : query).executeTakeFirst();
    if (row === undefined) return undefined;
    const [network] = await this.#withNodes(db, [row]);
    return network;
  }

  /** The nodes of every network on a page, in one query. */
  async #withNodes(db: Db, rows: readonly NetworkRow[]): Promise<Network[]> {
    if (rows.length === 0) return [];
    const nodes = await db
      .selectFrom('nodes')
      .select(['id', 'name', 'platform_id', 'region_id', 'network_id'])
      .where(
        'network_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((r) => toNetwork(r, nodes.filter((n) => n.network_id === r.id).map(toNode)));
  }
}

function toNode(n: { id: string; name: string; platform_id: string; region_id: string }): NetworkNode {
  return { id: n.id, name: n.name, platformId: n.platform_id, regionId: n.region_id };
}
