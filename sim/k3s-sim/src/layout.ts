import { join } from 'node:path';

/**
 * Where a simulated host keeps k3s' files, under its root folder, at the paths k3s uses on a real
 * machine, so that what `nr` reads and writes on a simulated host is what it would on a real one.
 */
export interface K3sLayout {
  readonly root: string;
  /** `/etc/rancher/k3s/k3s.yaml`: the admin kubeconfig k3s writes (0600). */
  readonly kubeconfig: string;
  /** kube-sim's state file, so that a restarted k3s keeps its objects, CA and tokens. */
  readonly state: string;
  /** The port chosen at the first start, kept so that kubeconfigs stay valid across restarts. */
  readonly port: string;
  /** The running server's pid; present while it runs. */
  readonly pid: string;
  /** Written once the API serves and the node is Ready, as systemd's notify would be. */
  readonly ready: string;
  /** k3s' own log (the journal of the unit). */
  readonly log: string;
  /** One log file per workload: `<namespace>_<name>.log`. */
  readonly podLogs: string;
  /** Service account kubeconfigs the pod runner gives the processes it starts. */
  readonly podKubeconfigs: string;
  /** The kubelet's pod folders: `<namespace>_<name>/volumes/<volume>/…` holds a pod's volumes. */
  readonly pods: string;
  /**
   * k3s-sim's stand-in for cluster DNS and kube-proxy: `<namespace>_<service>.json` says on which loopback
   * address each port of a Service is served (see `ServiceEndpoints`).
   */
  readonly endpoints: string;
}

/**
 * A Service's ports, by port number and by name, each to the `127.0.0.1:PORT` the process behind it
 * bound; only while that process serves.
 */
export interface ServiceEndpoints {
  readonly ports: Readonly<Record<string, string>>;
}

/** The environment variable naming `endpoints` for the processes the pod runner starts. */
export const ENDPOINTS_ENV = 'K3S_SIM_ENDPOINTS_DIR';

export function k3sLayout(root: string): K3sLayout {
  const server = join(root, 'var/lib/rancher/k3s/server');
  return {
    root,
    kubeconfig: join(root, 'etc/rancher/k3s/k3s.yaml'),
    state: join(server, 'kube-sim-state.json'),
    port: join(server, 'port'),
    pid: join(root, 'run/k3s/k3s.pid'),
    ready: join(root, 'run/k3s/ready'),
    log: join(root, 'var/log/k3s.log'),
    podLogs: join(root, 'var/log/pods'),
    podKubeconfigs: join(server, 'pod-kubeconfigs'),
    pods: join(root, 'var/lib/kubelet/pods'),
    endpoints: join(root, 'run/k3s/endpoints'),
  };
}

/** The file a workload's process writes its output to. */
export function podLogPath(layout: K3sLayout, namespace: string, name: string): string {
  return join(layout.podLogs, `${namespace}_${name}.log`);
}

/** The file that says where a Service is served. */
export function serviceEndpointsPath(endpointsDir: string, namespace: string, service: string): string {
  return join(endpointsDir, `${namespace}_${service}.json`);
}
