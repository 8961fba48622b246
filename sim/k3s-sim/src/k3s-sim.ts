import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

import { KubeClient, type ApiResource, type KubeObject } from '@noderings/kube';
import { startKubeSim, type KubeSim } from '@noderings/kube-sim';

import { k3sLayout, type K3sLayout } from './layout.js';
import { PodRunner } from './pod-runner.js';

export interface K3sSimOptions {
  /** The simulated host's root folder: k3s' files go under it at their real paths. */
  readonly root: string;
  /** `--node-ip`: the node's InternalIP. */
  readonly nodeIp: string;
  /** The node's name (the host's hostname). */
  readonly nodeName: string;
  /** What the node reports as its kubelet version, like `v1.34.2+k3s1`. */
  readonly version: string;
}

export interface K3sSim {
  readonly url: string;
  readonly layout: K3sLayout;
  close(): Promise<void>;
}

const NODES: ApiResource<KubeObject> = {
  group: '',
  version: 'v1',
  kind: 'Node',
  plural: 'nodes',
  namespaced: false,
  hasStatus: true,
};

/**
 * Starts k3s as a simulated host has it: a kube-sim keeping its objects in k3s' data folder, on the port
 * it had before (kubeconfigs handed out stay valid across restarts), its admin kubeconfig written where
 * k3s writes it (0600), one Ready node, and a pod runner for the workloads applied to it.
 */
export async function startK3sSim(options: K3sSimOptions): Promise<K3sSim> {
  const layout = k3sLayout(options.root);
  await mkdir(dirname(layout.state), { recursive: true, mode: 0o700 });
  const previousPort = await readFile(layout.port, 'utf8').then(
    (text) => Number(text.trim()),
    () => 0,
  );
  const sim = await startOnPort(layout, previousPort);
  await writeFile(layout.port, `${new URL(sim.url).port}\n`);
  await mkdir(dirname(layout.kubeconfig), { recursive: true });
  await sim.writeKubeconfig(layout.kubeconfig);
  await chmod(layout.kubeconfig, 0o600);

  const admin = new KubeClient({ kubeconfigPath: layout.kubeconfig });
  await registerNode(admin, options);
  const runner = new PodRunner(admin, layout, (path, token, namespace) =>
    mkdir(dirname(path), { recursive: true }).then(() =>
      sim.writeKubeconfig(path, { user: { token }, namespace }),
    ),
  );
  runner.start();
  await mkdir(dirname(layout.ready), { recursive: true });
  await writeFile(layout.ready, `${String(process.pid)}\n`);
  return {
    url: sim.url,
    layout,
    close: async () => {
      await rm(layout.ready, { force: true });
      await runner.stop();
      await sim.close();
    },
  };
}

/** The port of the last start when it is still free; a new one otherwise (and the kubeconfig follows). */
async function startOnPort(layout: K3sLayout, port: number): Promise<KubeSim> {
  if (port > 0) {
    try {
      return await startKubeSim({ listen: `127.0.0.1:${String(port)}`, statePath: layout.state });
    } catch (e: unknown) {
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    }
  }
  return startKubeSim({ listen: '127.0.0.1:0', statePath: layout.state });
}

/** The node the kubelet registers: Ready, with the node IP and the version k3s runs. */
async function registerNode(admin: KubeClient, options: K3sSimOptions): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const nodes = admin.resource(NODES);
  const node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: options.nodeName,
      labels: {
        'kubernetes.io/hostname': options.nodeName,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'node-role.kubernetes.io/control-plane': 'true',
        'node.kubernetes.io/instance-type': 'k3s',
      },
    },
  };
  await nodes.apply(node, { fieldManager: 'k3s', force: true });
  await nodes.mergePatchStatus(
    { name: options.nodeName },
    {
      status: {
        addresses: [
          { type: 'InternalIP', address: options.nodeIp },
          { type: 'Hostname', address: options.nodeName },
        ],
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'KubeletReady',
            message: 'kubelet is posting ready status',
            lastHeartbeatTime: now,
            lastTransitionTime: now,
          },
        ],
        nodeInfo: {
          kubeletVersion: options.version,
          kubeProxyVersion: options.version,
          containerRuntimeVersion: 'containerd://2.1.5-k3s1',
          operatingSystem: 'linux',
          architecture: 'amd64',
        },
      },
    },
  );
}
