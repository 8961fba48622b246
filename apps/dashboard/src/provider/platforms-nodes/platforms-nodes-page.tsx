import { useQueryClient } from '@tanstack/react-query';

import { apiPath } from '../../api/api-client.js';
import type {
  Agent,
  HypervisorNode,
  Platform,
  ProviderVirtualMachine,
  Region,
} from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { formatDateTime } from '../../format/dates.js';
import { serviceStatusName } from '../../format/display-names.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { Page, Section } from '../../ui/page.js';
import { EmptyState, QueriesState } from '../../ui/query-state.js';
import { StatusBadge } from '../../ui/status-badge.js';
import {
  providerKeys,
  useAgents,
  useNodes,
  usePlatforms,
  useProviderVms,
  useRegions,
} from '../provider-queries.js';
import { AddNodeForm } from './add-node-form.js';
import { CreatePlatformForm } from './create-platform-form.js';
import { NodeCard } from './node-card.js';
import { PlatformAgentLink } from './platform-agent-link.js';

/** What each platform driver the API names is called on the page. */
const PLATFORM_DRIVERS: Readonly<Record<Platform['driver'], string>> = {
  PLATFORM_DRIVER_PROXMOX: 'Proxmox VE',
};

/** Status and inventory arrive with the agent's metrics every 30 s. */
const INVENTORY_REFRESH_MS = 30_000;

export function PlatformsNodesPage() {
  const platforms = usePlatforms({ refetchInterval: INVENTORY_REFRESH_MS });
  const nodes = useNodes({ refetchInterval: INVENTORY_REFRESH_MS });
  const agents = useAgents();
  const regions = useRegions();
  const vms = useProviderVms();
  return (
    <Page
      title="Platforms and nodes"
      description="A platform is one Proxmox API endpoint served by an agent; each node is a host in it that can receive customer VMs."
    >
      <Section title="Platforms" id="platforms">
        <QueriesState
          queries={[platforms, nodes, agents, regions, vms]}
          loadingLabel="Loading platforms and nodes…"
        >
          {(platformList, nodeList, agentList, regionList, vmList) =>
            platformList.length === 0 ? (
              <EmptyState>
                <p>No platforms yet. Create one below with your Proxmox API endpoint and your agent.</p>
              </EmptyState>
            ) : (
              <ul className="card-list card-list-wide">
                {platformList.map((platform) => (
                  <PlatformCard
                    key={platform.id}
                    platform={platform}
                    agents={agentList}
                    nodes={nodeList.filter((n) => n.platformId === platform.id)}
                    regions={regionList}
                    vms={vmList}
                  />
                ))}
              </ul>
            )
          }
        </QueriesState>
      </Section>
      <div className="two-columns">
        <CreatePlatformForm agents={agents.data ?? []} />
        <AddNodeForm platforms={platforms.data ?? []} regions={regions.data ?? []} />
      </div>
    </Page>
  );
}

function PlatformCard({
  platform,
  agents,
  nodes,
  regions,
  vms,
}: {
  readonly platform: Platform;
  readonly agents: readonly Agent[];
  readonly nodes: readonly HypervisorNode[];
  readonly regions: readonly Region[];
  readonly vms: readonly ProviderVirtualMachine[];
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const agent = agents.find((a) => a.id === platform.agentId);
  const online = platform.serviceStatus === 'SERVICE_STATUS_ONLINE';
  const remove = async () => {
    await api.delete(apiPath`/v1/platform/${platform.id}`);
    announce(`Platform ${platform.name} deleted.`);
    await queryClient.invalidateQueries({ queryKey: providerKeys.platforms });
  };
  const headingId = `platform-${platform.id}`;
  return (
    <li className="card" aria-labelledby={headingId}>
      <h3 id={headingId}>
        Platform {platform.name}{' '}
        <StatusBadge tone={online ? 'good' : 'bad'}>{serviceStatusName(platform.serviceStatus)}</StatusBadge>
      </h3>
      <dl className="facts">
        <dt>Endpoint URL</dt>
        <dd>
          <code>{platform.endpointUrl}</code>
        </dd>
        <dt>Driver</dt>
        <dd>{PLATFORM_DRIVERS[platform.driver]}</dd>
        <dt>Agent</dt>
        <dd>
          {agent === undefined ? 'None linked: orders cannot reach this platform' : agent.name}
          {agent !== undefined && !platform.agentProvisioned && ' (not installed yet)'}
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(platform.createTime)}</dd>
      </dl>
      <PlatformAgentLink platform={platform} agents={agents} />
      <ConfirmButton
        className="button-danger button-small"
        label={`Delete platform ${platform.name}`}
        title={`Delete platform ${platform.name}?`}
        body={<p>Platforms with nodes cannot be deleted; delete their nodes first.</p>}
        confirmLabel="Delete platform"
        onConfirm={remove}
      >
        Delete platform
      </ConfirmButton>
      {nodes.length === 0 ? (
        <p>No nodes yet: add each Proxmox host of this platform.</p>
      ) : (
        <ul className="card-list card-list-wide" aria-label={`Nodes of ${platform.name}`}>
          {nodes.map((node) => (
            <NodeCard
              key={node.id}
              node={node}
              region={regions.find((r) => r.id === node.regionId)}
              vms={vms}
            />
          ))}
        </ul>
      )}
    </li>
  );
}
