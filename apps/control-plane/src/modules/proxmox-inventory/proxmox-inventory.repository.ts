import type { Db } from '../../db/database.js';
import type { ProxmoxInventoryReading, ProxmoxNodeInventory } from './proxmox-inventory.js';

const NEVER_READ = "the control plane has not read the agent's Proxmox inventory yet";

export interface AgentToRead {
  readonly agentId: string;
  readonly organizationId: string;
  /** When its inventory was last read, and whether that read found a report. */
  readonly readAt: Date | undefined;
  readonly reported: boolean;
}

export class ProxmoxInventoryRepository {
  constructor(private readonly db: Db) {}

  /** Agents whose cluster the control plane can reach: those with an uploaded kubeconfig. */
  async agentsToRead(): Promise<AgentToRead[]> {
    const rows = await this.db
      .selectFrom('agents as a')
      .leftJoin('proxmox_inventories as i', 'i.agent_id', 'a.id')
      .select(['a.id', 'a.organization_id', 'i.read_at', 'i.observed_at'])
      .where('a.inbound_kubeconfig_ciphertext', 'is not', null)
      .orderBy('a.id')
      .execute();
    return rows.map((r) => ({
      agentId: r.id,
      organizationId: r.organization_id,
      readAt: r.read_at ?? undefined,
      reported: r.observed_at !== null,
    }));
  }

  async ofAgents(agentIds: readonly string[]): Promise<Map<string, ProxmoxInventoryReading>> {
    const rows =
      agentIds.length === 0
        ? []
        : await this.db
            .selectFrom('proxmox_inventories')
            .selectAll()
            .where('agent_id', 'in', [...agentIds])
            .execute();
    const byAgent = new Map(rows.map((r) => [r.agent_id, r]));
    return new Map(
      agentIds.map((id): [string, ProxmoxInventoryReading] => {
        const row = byAgent.get(id);
        if (row?.nodes == null || row.observed_at === null)
          return [
            id,
            {
              reported: false,
              why: row === undefined || row.read_error === '' ? NEVER_READ : row.read_error,
            },
          ];
        return [id, { reported: true, nodes: row.nodes, observedAt: row.observed_at }];
      }),
    );
  }

  /** The reading for the platform's agent; undefined when the platform is linked to no agent. */
  async ofPlatform(organizationId: string, platformId: string): Promise<ProxmoxInventoryReading | undefined> {
    const platform = await this.db
      .selectFrom('platforms')
      .select('agent_id')
      .where('organization_id', '=', organizationId)
      .where('id', '=', platformId)
      .executeTakeFirst();
    const agentId = platform?.agent_id;
    if (agentId == null) return undefined;
    return (await this.ofAgents([agentId])).get(agentId);
  }

  /**
   * Stores a read; a failed read keeps the nodes last reported (Proxmox did not lose them) but records
   * why. True when what checks see changed.
   */
  async save(agentId: string, reading: ProxmoxInventoryReading, readAt: Date): Promise<boolean> {
    const before = await this.db
      .selectFrom('proxmox_inventories')
      .select(['nodes', 'read_error'])
      .where('agent_id', '=', agentId)
      .executeTakeFirst();
    const values = reading.reported
      ? { nodes: JSON.stringify(reading.nodes), observed_at: reading.observedAt, read_error: '' }
      : { read_error: reading.why };
    await this.db
      .insertInto('proxmox_inventories')
      .values({ agent_id: agentId, read_at: readAt, nodes: null, ...values })
      .onConflict((oc) => oc.column('agent_id').doUpdateSet({ read_at: readAt, ...values }))
      .execute();
    if (reading.reported) return comparable(before?.nodes ?? null) !== comparable(reading.nodes);
    return before?.nodes == null && before?.read_error !== reading.why;
  }
}

function comparable(nodes: readonly ProxmoxNodeInventory[] | null): string {
  return JSON.stringify(nodes?.map((n) => [n.name, n.online, n.templateVmids]) ?? null);
}
