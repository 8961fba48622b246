import { runChecked, type Host, type ServiceUnit } from '../../host/host.js';
import { getJson, kubectl, readyNodes, type NodeList } from '../kubectl.js';
import type { Phase, RegisterContext } from '../phase.js';
import { pinsOf, waitFor } from '../phase.js';
import { pinOf, verifiedDownload, type PinnedComponent } from '../platform-versions.js';

export const K3S_BINARY = '/usr/local/bin/k3s';
export const K3S_SERVICE = 'k3s';
export const K3S_KUBECONFIG = '/etc/rancher/k3s/k3s.yaml';
/** k3s' data and configuration, removed by `deregister --uninstall-k3s`. */
export const K3S_DATA = ['/var/lib/rancher/k3s', '/etc/rancher/k3s', '/var/lib/kubelet'];
/** k3s' defaults, spelled out: Calico's pool is set to the same pod CIDR. */
export const POD_CIDR = '10.42.0.0/16';
const SERVICE_CIDR = '10.43.0.0/16';
const READY_TIMEOUT_MS = 5 * 60_000;

/**
 * k3s as nr runs it: the pinned binary under our own unit, not get.k3s.io's script (nothing unverified
 * runs as root). Flannel and its network policy controller give way to Calico; Traefik is not needed.
 */
function k3sUnit(nodeIp: string): ServiceUnit {
  return {
    name: K3S_SERVICE,
    description: 'Lightweight Kubernetes (k3s), installed by nr',
    // k3s tells systemd when it serves: `systemctl enable --now` returns once the API is up.
    type: 'notify',
    execStart: [
      K3S_BINARY,
      'server',
      `--node-ip=${nodeIp}`,
      `--node-external-ip=${nodeIp}`,
      '--flannel-backend=none',
      '--disable-network-policy',
      '--disable=traefik',
      `--cluster-cidr=${POD_CIDR}`,
      `--service-cidr=${SERVICE_CIDR}`,
      '--write-kubeconfig-mode=0600',
    ],
  };
}

/** `sha256sum /usr/local/bin/k3s`: the checksum of the k3s installed, or undefined without one. */
async function installedChecksum(host: Host): Promise<string | undefined> {
  const result = await host.run({ argv: ['sha256sum', K3S_BINARY] });
  return result.exitCode === 0 ? result.stdout.split(/\s+/)[0] : undefined;
}

async function nodeReady(host: Host): Promise<boolean> {
  return readyNodes(await getJson<NodeList>(host, ['nodes'])).length > 0;
}

function k3sPin(ctx: RegisterContext): Promise<PinnedComponent> {
  return pinsOf(ctx).then((pins) => pinOf(pins, 'k3s'));
}

/** Phase 4: the pinned k3s binary, its unit running, and a Ready node. */
export const k3sPhase: Phase = {
  name: 'k3s',
  title: 'k3s',
  isDone: async (ctx) =>
    (await installedChecksum(ctx.host)) === (await k3sPin(ctx)).checksumSha256 &&
    (await ctx.host.serviceState(K3S_SERVICE)) === 'active' &&
    (await nodeReady(ctx.host)),
  plan: async (ctx) => {
    const pin = await k3sPin(ctx);
    const unit = k3sUnit(ctx.input.agentIp);
    return [
      { description: `write k3s ${pin.version} to ${K3S_BINARY} (0755)` },
      { description: `install the systemd unit ${unit.name}.service: ${unit.execStart.join(' ')}` },
      { description: `start ${unit.name}.service and wait for a Ready node` },
      { description: 'list nodes', command: kubectl(['get', 'nodes', '-o', 'json']) },
    ];
  },
  run: async (ctx) => {
    const pin = await k3sPin(ctx);
    if ((await installedChecksum(ctx.host)) !== pin.checksumSha256) {
      // A running k3s keeps its binary busy; it is stopped before the binary is replaced.
      if ((await ctx.host.serviceState(K3S_SERVICE)) !== 'not-found') await ctx.host.stopService(K3S_SERVICE);
      await ctx.host.writeFile(K3S_BINARY, await verifiedDownload(ctx.configDir, pin), 0o755);
      ctx.say(`k3s ${pin.version} written to ${K3S_BINARY}`);
    }
    await ctx.host.installService(k3sUnit(ctx.input.agentIp));
    await ctx.host.startService(K3S_SERVICE);
    await waitFor(ctx, 'a Ready k3s node', READY_TIMEOUT_MS, async () =>
      (await nodeReady(ctx.host)) ? true : undefined,
    );
    ctx.state.versions.k3s = pin.version;
    const version = await runChecked(ctx.host, { argv: ['k3s', '--version'] });
    ctx.say(version.split('\n')[0] ?? '');
  },
};
