import type { Caller, ControlPlaneClient } from './control-plane-client.js';
import { SandboxError } from './sandbox-error.js';

export interface Account {
  readonly email: string;
  readonly password: string;
}

export interface ProviderSeedInput {
  readonly staff: Account;
  readonly provider: Account;
  readonly pveUrl: string;
  /** The simulated cluster's node names, as `pvesh get /nodes` lists them. */
  readonly pveNodes: readonly string[];
  /** Sets the agent cluster up for the new agent and returns the kubeconfig the provider uploads. */
  readonly prepareAgentCluster: (agentId: string) => Promise<string>;
}

export interface SeededProvider {
  readonly organizationId: string;
  readonly organizationName: string;
  readonly region: { readonly id: string; readonly city: string; readonly datacenter: string };
  readonly agent: { readonly id: string; readonly name: string };
  readonly platform: { readonly id: string; readonly name: string; readonly endpointUrl: string };
  readonly nodes: readonly { readonly id: string; readonly name: string; readonly vmidSeed: number }[];
}

const ORGANIZATION_NAME = 'Sandbox Hosting';
const REGION = { cityCountryId: 'de-fra', datacenterId: 'own-facility' };
const AGENT = {
  name: 'sandbox-agent',
  // A documentation address (RFC 5737): loopback is refused, and no tunnel is ever built to it.
  agentPublicIp: '192.0.2.10',
  gatewayRegion: 'AGENT_GATEWAY_REGION_AMS01',
  hypervisorDriver: 'HYPERVISOR_DRIVER_PROXMOX',
};
const PLATFORM_NAME = 'pve-sim';
const NODE_SETTINGS = {
  vmStorageDestination: 'local-lvm',
  backupStorageDestination: 'local',
  backupStorageCompression: 'BACKUP_STORAGE_COMPRESSION_ZSTD',
};
/** VMIDs are unique across a Proxmox cluster, so each node counts from its own thousand. */
const VMID_SEED_STEP = 1000;

/** A provider organisation registered by its owner and verified by staff: the owner's session. */
export async function registerVerifiedProvider(
  api: ControlPlaneClient,
  owner: Account,
  staff: Account,
  organizationName: string,
): Promise<Caller & { readonly organizationId: string }> {
  const registered = await api.call<{ token: string; organization: { id: string } }>(
    'POST',
    '/v1/auth/register',
    201,
    { body: { ...owner, organizationName, organizationType: 'ORGANIZATION_TYPE_PROVIDER' } },
  );
  const organizationId = registered.organization.id;
  const session = await api.call<{ token: string }>('POST', '/v1/auth/login', 200, { body: staff });
  await api.call('POST', `/v1/organizations/${organizationId}:verify`, 200, { as: session });
  return { token: registered.token, organizationId };
}

/**
 * A verified provider with a region, an agent whose inbound peering is ready, a Proxmox platform on
 * that agent and one node per simulated Proxmox node, made through the public API alone, as a provider
 * and staff would make them. Also returns the provider's session, for what is seeded next.
 */
export async function seedProvider(
  api: ControlPlaneClient,
  input: ProviderSeedInput,
): Promise<{ readonly provider: SeededProvider; readonly session: Caller }> {
  const provider = await registerVerifiedProvider(api, input.provider, input.staff, ORGANIZATION_NAME);
  const organizationId = provider.organizationId;

  const region = await api.call<{
    id: string;
    cityCountry: { cityName: string };
    datacenter: { name: string };
  }>('POST', '/v1/regions', 201, { as: provider, body: REGION });
  const { agent } = await api.call<{ agent: { id: string; name: string } }>('POST', '/v1/agents', 201, {
    as: provider,
    body: AGENT,
  });
  const kubeconfig = await input.prepareAgentCluster(agent.id);
  await uploadInboundPeeringConfig(api, provider, agent.id, kubeconfig);
  const { platform } = await api.call<{ platform: { id: string; name: string; endpointUrl: string } }>(
    'POST',
    '/v1/platform',
    201,
    {
      as: provider,
      body: {
        name: PLATFORM_NAME,
        endpointUrl: input.pveUrl,
        driver: 'PLATFORM_DRIVER_PROXMOX',
        agentId: agent.id,
      },
    },
  );
  const nodes = [];
  for (const [index, name] of input.pveNodes.entries()) {
    const { node } = await api.call<{ node: { id: string; name: string; vmidSeed: number } }>(
      'POST',
      '/v1/node',
      201,
      {
        as: provider,
        body: {
          ...NODE_SETTINGS,
          name,
          platformId: platform.id,
          regionId: region.id,
          vmidSeed: VMID_SEED_STEP * (index + 1),
        },
      },
    );
    nodes.push({ id: node.id, name: node.name, vmidSeed: node.vmidSeed });
  }
  return {
    provider: {
      organizationId,
      organizationName: ORGANIZATION_NAME,
      region: { id: region.id, city: region.cityCountry.cityName, datacenter: region.datacenter.name },
      agent: { id: agent.id, name: agent.name },
      platform: { id: platform.id, name: platform.name, endpointUrl: platform.endpointUrl },
      nodes,
    },
    session: provider,
  };
}

/** Gives the control plane the agent cluster's kubeconfig; throws unless it could reach the cluster with it. */
export async function uploadInboundPeeringConfig(
  api: ControlPlaneClient,
  provider: Caller,
  agentId: string,
  kubeconfig: string,
): Promise<void> {
  const peering = await api.call<{ inboundPeeringState: string; inboundPeeringError: string }>(
    'POST',
    `/v1/agents/${agentId}:uploadInboundPeeringConfig`,
    200,
    { as: provider, body: { kubeconfig } },
  );
  if (peering.inboundPeeringState !== 'INBOUND_PEERING_STATE_READY') {
    throw new SandboxError(
      'PEERING_NOT_READY',
      `the agent's inbound peering is ${peering.inboundPeeringState}: ${peering.inboundPeeringError}`,
    );
  }
}
