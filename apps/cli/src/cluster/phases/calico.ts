import { runChecked } from '../../host/host.js';
import {
  applyCommand,
  applyObjects,
  getJson,
  readyCount,
  readyNodes,
  type NodeList,
  type WorkloadStatus,
} from '../kubectl.js';
import type { Phase, RegisterContext } from '../phase.js';
import { pinsOf, waitFor } from '../phase.js';
import { pinOf, verifiedDownload } from '../platform-versions.js';
import { POD_CIDR } from './k3s.js';

const INSTALLATION_CRD = 'installations.operator.tigera.io';
const CALICO_NAMESPACE = 'calico-system';
const CALICO_NODE = 'calico-node';
const ESTABLISHED_TIMEOUT_MS = 2 * 60_000;
const READY_TIMEOUT_MS = 10 * 60_000;

/**
 * The Installation the tigera operator builds Calico from: one VXLAN pool on k3s' pod CIDR (VXLAN works
 * where BGP peers do not exist, as on a lone provider VM), node addresses from Kubernetes.
 */
export function calicoInstallation(): Record<string, unknown> {
  return {
    apiVersion: 'operator.tigera.io/v1',
    kind: 'Installation',
    metadata: { name: 'default' },
    spec: {
      calicoNetwork: {
        ipPools: [
          {
            name: 'default-ipv4-ippool',
            cidr: POD_CIDR,
            encapsulation: 'VXLAN',
            natOutgoing: 'Enabled',
            nodeSelector: 'all()',
          },
        ],
        nodeAddressAutodetectionV4: { kubernetes: 'NodeInternalIP' },
      },
    },
  };
}

/** How many calico-node pods are ready against how many Ready nodes there are. */
export async function calicoReadiness(
  ctx: Pick<RegisterContext, 'host'>,
): Promise<{ ready: number; nodes: number }> {
  const [daemonSet, nodes] = await Promise.all([
    getJson<WorkloadStatus>(ctx.host, ['daemonset', CALICO_NODE, '-n', CALICO_NAMESPACE]),
    getJson<NodeList>(ctx.host, ['nodes']),
  ]);
  return { ready: readyCount(daemonSet), nodes: readyNodes(nodes).length };
}

/** Phase 5: Calico by its pinned tigera-operator manifest and our Installation, calico-node ready. */
export const calicoPhase: Phase = {
  name: 'calico',
  title: 'Calico',
  isDone: async (ctx) => {
    const installation = await getJson(ctx.host, ['installation.operator.tigera.io', 'default']);
    const { ready, nodes } = await calicoReadiness(ctx);
    return installation !== undefined && nodes > 0 && ready >= nodes;
  },
  plan: async (ctx) => {
    const pin = pinOf(await pinsOf(ctx), 'calico');
    return [
      {
        description: `apply Calico ${pin.version} (tigera-operator manifest)`,
        command: applyCommand('(manifest)'),
      },
      {
        description: 'apply the Installation default (VXLAN pool on the pod CIDR)',
        command: applyCommand('(Installation)'),
      },
      { description: 'wait for calico-node to be ready on every node' },
    ];
  },
  run: async (ctx) => {
    const pin = pinOf(await pinsOf(ctx), 'calico');
    const manifest = (await verifiedDownload(ctx.configDir, pin)).toString('utf8');
    await runChecked(ctx.host, applyCommand(manifest));
    await waitFor(ctx, `the CRD ${INSTALLATION_CRD} to be established`, ESTABLISHED_TIMEOUT_MS, async () => {
      const crd = await getJson<{ status?: { conditions?: { type: string; status: string }[] } }>(ctx.host, [
        'crd',
        INSTALLATION_CRD,
      ]);
      return crd?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') === true
        ? true
        : undefined;
    });
    await applyObjects(ctx.host, [calicoInstallation()]);
    await waitFor(ctx, 'calico-node to be ready', READY_TIMEOUT_MS, async () => {
      const { ready, nodes } = await calicoReadiness(ctx);
      return nodes > 0 && ready >= nodes ? true : undefined;
    });
    ctx.state.versions.calico = pin.version;
  },
};
