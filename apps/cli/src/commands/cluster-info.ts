import type { Command } from '../command.js';
import { openClusterSession } from '../cluster/cluster-session.js';
import { getJson, type NodeList } from '../cluster/kubectl.js';
import { renderFields } from '../output.js';

export const clusterInfo: Command = {
  path: ['cluster', 'info'],
  summary: 'what was registered: agent, host, versions, nodes',
  synopsis: '[--name NAME]',
  options: { name: { type: 'string' } },
  args: [],
  run: async (ctx) => {
    const { host, state } = await openClusterSession(ctx);
    const nodes = await getJson<
      NodeList & { items: { status?: { nodeInfo?: { kubeletVersion?: string } } }[] }
    >(host, ['nodes']);
    const info = {
      agent_id: state.agent_id ?? null,
      agent_name: state.agent_name,
      agent_ip: state.agent_ip,
      gateway_region: state.gateway_region,
      api_url: state.api_url,
      host: host.description,
      registration_time: state.registration_time,
      versions: state.versions,
      platform_id: state.platform_id ?? null,
      nodes: (nodes?.items ?? []).map((n) => ({
        name: n.metadata.name,
        kubelet_version: n.status?.nodeInfo?.kubeletVersion ?? null,
      })),
    };
    ctx.out.result(info, () =>
      renderFields([
        ['Cluster', info.agent_name],
        ['Agent', info.agent_id ?? '-'],
        ['Agent IP', info.agent_ip],
        ['API', info.api_url],
        ['Host', info.host],
        ['Registered', info.registration_time],
        [
          'Versions',
          Object.entries(info.versions)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ') || '-',
        ],
        ['Nodes', info.nodes.map((n) => `${n.name} (${n.kubelet_version ?? '?'})`).join(', ') || '-'],
      ]),
    );
  },
};
