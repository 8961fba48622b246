import {
  DEFAULT_MAC_ADDRESS_PREFIX,
  FailedPreconditionError,
  formatIpAddress,
  normalizeMacAddressPrefix,
  NotFoundError,
  parseIpAddress,
} from '@noderings/domain';

import type { Page, PageResult } from '../../http/pagination.js';
import type { Network, NetworkFields, NetworkNode, NetworkRepository } from './network.repository.js';

export interface NetworkInput {
  readonly name: string;
  readonly dnsServers?: readonly string[] | undefined;
  readonly macAddressPrefix?: string | undefined;
}

export type NetworkChanges = Partial<NetworkInput>;

export class NetworkService {
  constructor(
    private readonly deps: {
      readonly networks: Pick<
        NetworkRepository,
        | 'list'
        | 'findById'
        | 'insert'
        | 'update'
        | 'delete'
        | 'assignNodes'
        | 'networkOfNode'
        | 'unassignNode'
      >;
    },
  ) {}

  list(organizationId: string, page: Page): Promise<PageResult<Network>> {
    return this.deps.networks.list(organizationId, page);
  }

  async get(organizationId: string, id: string): Promise<Network> {
    const network = await this.deps.networks.findById(organizationId, id);
    if (network === undefined) throw NotFoundError.of('Network', id);
    return network;
  }

  async create(organizationId: string, input: NetworkInput): Promise<Network> {
    const fields = normalized({
      name: input.name,
      dnsServers: input.dnsServers ?? [],
      macAddressPrefix: input.macAddressPrefix ?? DEFAULT_MAC_ADDRESS_PREFIX,
    });
    return await this.deps.networks.insert(organizationId, fields);
  }

  /** Fields left out keep their values. A new MAC prefix applies to VMs ordered afterwards. */
  async update(organizationId: string, id: string, changes: NetworkChanges): Promise<Network> {
    const updated = await this.deps.networks.update(organizationId, id, (current) =>
      normalized({
        name: changes.name ?? current.name,
        dnsServers: changes.dnsServers ?? current.dnsServers,
        macAddressPrefix: changes.macAddressPrefix ?? current.macAddressPrefix,
      }),
    );
    if (updated === undefined) throw NotFoundError.of('Network', id);
    return updated;
  }

  async delete(organizationId: string, id: string): Promise<void> {
    const result = await this.deps.networks.delete(organizationId, id);
    switch (result.outcome) {
      case 'deleted':
        return;
      case 'not-found':
        throw NotFoundError.of('Network', id);
      case 'in-use':
        throw new FailedPreconditionError(
          `The network still has ${String(result.nodeCount)} node(s) and ${String(result.prefixCount)} prefix(es): unassign the nodes and move or delete the prefixes first.`,
        );
    }
  }

  /** All or nothing: an unknown node, or one on another network, leaves every node as it was. */
  async assignNodes(organizationId: string, id: string, nodeIds: readonly string[]): Promise<Network> {
    const result = await this.deps.networks.assignNodes(organizationId, id, nodeIds);
    switch (result.outcome) {
      case 'assigned':
        return result.network;
      case 'network-not-found':
        throw NotFoundError.of('Network', id);
      case 'nodes-not-found':
        throw new NotFoundError(`Node ${result.nodeIds.join(', ')} was not found.`);
      case 'nodes-on-other-networks':
        throw new FailedPreconditionError(
          `A node has one network: ${result.nodes.map((n) => n.name).join(', ')} already on another network; unassign it there first.`,
        );
    }
  }

  async nodesOf(organizationId: string, id: string): Promise<readonly NetworkNode[]> {
    return (await this.get(organizationId, id)).nodes;
  }

  /** Undefined when the node is on no network. */
  async networkOfNode(organizationId: string, nodeId: string): Promise<Network | undefined> {
    const { node, network } = await this.deps.networks.networkOfNode(organizationId, nodeId);
    if (node === undefined) throw NotFoundError.of('Node', nodeId);
    return network;
  }

  async unassignNode(organizationId: string, nodeId: string): Promise<void> {
    if (!(await this.deps.networks.unassignNode(organizationId, nodeId)))
      throw NotFoundError.of('Node', nodeId);
  }
}

/** The request schema has checked the syntax; this gives each value its one stored spelling. */
function normalized(fields: NetworkFields): NetworkFields {
  const dnsServers = fields.dnsServers.map((text, i) =>
    formatIpAddress(parseIpAddress(text, `dnsServers.${String(i)}`)),
  );
  return {
    name: fields.name.trim(),
    dnsServers: [...new Set(dnsServers)],
    macAddressPrefix: normalizeMacAddressPrefix(fields.macAddressPrefix),
  };
}
