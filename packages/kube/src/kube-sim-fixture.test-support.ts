import { startKubeSim } from '@noderings/kube-sim';
import type { ProxmoxVM } from './crd-types.js';
import { CRD_API_VERSION } from './crd-types.js';
import { installCrds } from './install-crds.js';
import { KubeClient } from './kube-client.js';

type KubeSim = Awaited<ReturnType<typeof startKubeSim>>;

export interface Fixture {
  sim: KubeSim;
  client: KubeClient;
  namespace: string;
  close(): Promise<void>;
}

/** A fresh kube-sim over HTTPS with our CRDs installed and one operator namespace. */
export async function startFixture(options: { watchWindow?: number } = {}): Promise<Fixture> {
  const sim = await startKubeSim({ listen: '127.0.0.1:0', ...options });
  const client = new KubeClient({ kubeconfigYaml: sim.kubeconfigYaml });
  await installCrds(client.customResourceDefinitions);
  const namespace = '9b2d7c1e-0a4f-4e8b-b6c3-5d7e8f9a0b1c-operator';
  await client.namespaces.create({ metadata: { name: namespace } });
  return { sim, client, namespace, close: () => sim.close() };
}

let counter = 0;

/** A valid ProxmoxVM order with a fresh uuid, MAC and VMID. */
export function proxmoxVM(namespace: string): ProxmoxVM {
  counter += 1;
  const uuid = `3f0c8a52-8b1e-4c1a-9d7e-${counter.toString(16).padStart(12, '0')}`;
  const suffix = counter.toString(16).toUpperCase().padStart(2, '0').slice(-2);
  return {
    apiVersion: CRD_API_VERSION,
    kind: 'ProxmoxVM',
    metadata: { name: `nr-${uuid}`, namespace },
    spec: {
      vmId: uuid,
      node: 'pve1',
      vmid: 1000 + counter,
      templateVmid: 9000,
      cpu: { cores: 2 },
      memoryMiB: 2048,
      disk: { storage: 'local-lvm', sizeGiB: 40 },
      network: {
        mac: `BC:24:11:00:00:${suffix}`,
        ipv4: { address: '203.0.113.10/24', gateway: '203.0.113.1' },
      },
      cloudInitSecretRef: `nr-${uuid}-cloudinit`,
    },
  };
}
