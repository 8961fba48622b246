import type { NodeStorage } from '@noderings/proxmox';

import { CliError } from '../../cli-error.js';
import type { Phase, RegisterContext } from '../phase.js';
import { agentIdOf, instancesOf } from '../phase.js';
import { proxmoxClientFor, type ProxmoxInstance } from '../proxmox-instances.js';

interface Platform {
  readonly id: string;
  readonly name: string;
  readonly endpointUrl: string;
  readonly agentId: string | null;
  readonly serviceStatus: string;
}

interface ApiNode {
  readonly id: string;
  readonly name: string;
}

/** What a Proxmox cluster has, read with the provider's token, on the provider's side. */
interface ProxmoxInventory {
  readonly nodes: readonly { name: string; vmStorage: string; backupStorage: string }[];
}

/** VMIDs are unique across a Proxmox cluster, so each node counts from its own thousand. */
const VMID_SEED_STEP = 1000;
const COMPRESSION = 'BACKUP_STORAGE_COMPRESSION_ZSTD';

function usable(storage: NodeStorage, content: string): boolean {
  return storage.content.split(',').includes(content) && storage.active !== 0 && storage.enabled !== 0;
}

async function readInventory(instance: ProxmoxInstance): Promise<ProxmoxInventory> {
  const pve = proxmoxClientFor(instance);
  try {
    const nodes = [];
    for (const node of (await pve.getNodes()).sort((a, b) => a.node.localeCompare(b.node))) {
      const storages = await pve.getStorages(node.node);
      const vmStorage = storages.find((s) => usable(s, 'images'))?.storage;
      const backupStorage = storages.find((s) => usable(s, 'backup'))?.storage;
      if (vmStorage === undefined || backupStorage === undefined)
        throw new CliError(
          'PHASE_FAILED',
          `Proxmox node ${node.node} has no active storage for ${vmStorage === undefined ? 'VM disks (content images)' : 'backups (content backup)'}.`,
        );
      nodes.push({ name: node.node, vmStorage, backupStorage });
    }
    return { nodes };
  } finally {
    await pve.close();
  }
}

function platformName(ctx: RegisterContext, instance: ProxmoxInstance): string {
  return `${ctx.input.name}-${instance.id}`;
}

/** This agent's platform for the instance (by its endpoint), if an earlier run created it. */
async function findPlatform(ctx: RegisterContext, instance: ProxmoxInstance): Promise<Platform | undefined> {
  const { platforms } = await ctx.api.get<{ platforms: Platform[] }>(
    `/v1/platforms?search=${encodeURIComponent(instance.url)}&pageSize=100`,
  );
  const found = platforms.find((p) => p.endpointUrl.replace(/\/+$/, '') === instance.url);
  if (found !== undefined && found.agentId !== ctx.state.agent_id)
    throw new CliError(
      'REGISTER_REFUSED',
      `${instance.url} is already the platform ${found.name} of ${found.agentId === null ? 'no agent' : `agent ${found.agentId}`}; a Proxmox cluster is registered once.`,
    );
  return found;
}

async function nodesOf(ctx: RegisterContext, platformId: string): Promise<ApiNode[]> {
  const { nodes } = await ctx.api.get<{ nodes: { node: ApiNode }[] }>(
    `/v1/nodes?platformId=${platformId}&pageSize=100`,
  );
  return nodes.map((n) => n.node);
}

/** `--region-id`, or the organisation's only region. */
async function regionOf(ctx: RegisterContext): Promise<string> {
  const given = ctx.input.regionId ?? ctx.state.register_scope.region_id;
  if (given !== undefined) return given;
  const { regions } = await ctx.api.get<{ regions: { id: string; name?: string }[] }>(
    '/v1/regions?pageSize=100',
  );
  const [only, ...more] = regions;
  if (only === undefined || more.length > 0)
    throw new CliError(
      'REGISTER_REFUSED',
      regions.length === 0
        ? 'The organization has no region for the nodes: create one in the dashboard, or pass --region-id.'
        : `The organization has ${String(regions.length)} regions: pass --region-id (one of ${regions.map((r) => r.id).join(', ')}).`,
    );
  return only.id;
}

/**
 * Phase 8 (`--register-platform`): a platform per Proxmox instance, on this agent, and a node per
 * Proxmox node with its storages, all read through the provider's token here, so that a provider never
 * types a node name. Platforms and nodes that exist already are kept.
 */
export const platformPhase: Phase = {
  name: 'platform',
  title: 'Platform and nodes',
  skipped: (ctx) => (ctx.input.registerPlatform ? undefined : 'no --register-platform'),
  isDone: async (ctx) => {
    if (ctx.state.agent_id === undefined) return false;
    for (const instance of await instancesOf(ctx)) {
      const platform = await findPlatform(ctx, instance);
      if (platform === undefined) return false;
      const inventory = await readInventory(instance);
      const names = new Set((await nodesOf(ctx, platform.id)).map((n) => n.name));
      if (inventory.nodes.some((n) => !names.has(n.name))) return false;
    }
    return true;
  },
  plan: async (ctx) =>
    (await instancesOf(ctx)).flatMap((instance) => [
      { description: `read the nodes and storages of ${instance.url} with its token` },
      {
        description: `POST /v1/platform {name: ${platformName(ctx, instance)}, endpointUrl: ${instance.url}}`,
      },
      { description: 'POST /v1/node for each Proxmox node that has no node yet' },
    ]),
  run: async (ctx) => {
    const agentId = agentIdOf(ctx);
    const regionId = await regionOf(ctx);
    for (const instance of await instancesOf(ctx)) {
      const inventory = await readInventory(instance);
      const platform =
        (await findPlatform(ctx, instance)) ??
        (
          await ctx.api.post<{ platform: Platform }>('/v1/platform', {
            name: platformName(ctx, instance),
            endpointUrl: instance.url,
            driver: 'PLATFORM_DRIVER_PROXMOX',
            agentId,
          })
        ).platform;
      ctx.state.platform_id ??= platform.id;
      const existing = new Set((await nodesOf(ctx, platform.id)).map((n) => n.name));
      for (const [index, node] of inventory.nodes.entries()) {
        if (existing.has(node.name)) continue;
        await ctx.api.post('/v1/node', {
          name: node.name,
          platformId: platform.id,
          regionId,
          vmidSeed: VMID_SEED_STEP * (index + 1),
          vmStorageDestination: node.vmStorage,
          backupStorageDestination: node.backupStorage,
          backupStorageCompression: COMPRESSION,
        });
      }
      ctx.say(`platform ${platform.name}: nodes ${inventory.nodes.map((n) => n.name).join(', ')}`);
    }
  },
};
