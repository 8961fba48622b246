import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';

import { startControlPlane, type ControlPlane } from '@noderings/control-plane';
import { startNatsServer, type NatsServerProcess } from '@noderings/fleet/nats-server';
import { startKubeletSim, type KubeletSim } from '@noderings/kubelet-sim';

import { ControlPlaneClient, type Caller } from './control-plane-client.js';
import { registerVerifiedProvider } from './provider-seed.js';

/**
 * A provider's fleet as a node agent meets it, every part real: a nats-server in operator mode with
 * JetStream, the control plane (embedded database) consuming from it, a verified provider with a fleet
 * environment, an install token and a Kubernetes cluster whose node is linked, and a kubelet-sim serving
 * that node over HTTPS. Everything lives in a temporary folder that `close` removes.
 */
export interface FleetSite {
  readonly nats: NatsServerProcess;
  readonly controlPlane: ControlPlane;
  readonly api: ControlPlaneClient;
  readonly provider: Caller;
  readonly environmentId: string;
  readonly clusterId: string;
  readonly installToken: string;
  readonly kubelet: KubeletSim;
  /** The kubelet's node name, linked to the cluster. */
  readonly nodeName: string;
  /** A file holding the token the kubelet accepts, and its serving certificate to trust. */
  readonly kubeletTokenFile: string;
  readonly kubeletCaFile: string;
  /** A scratch folder for the test's own files (agents' data and log directories). */
  readonly dir: string;
  /** What the control plane logged, one JSON line each. */
  readonly controlPlaneLog: readonly string[];
  close(): Promise<void>;
}

export interface FleetSiteOptions {
  readonly pods?: number;
  readonly nodeName?: string;
}

const STAFF = { email: 'staff@fleet.test', password: 'fleet staff password' } as const;
const PROVIDER = { email: 'provider@fleet.test', password: 'fleet provider password' } as const;
const KUBELET_TOKEN = 'node-agent-service-account-token';

export async function startFleetSite(options: FleetSiteOptions = {}): Promise<FleetSite> {
  const nodeName = options.nodeName ?? 'worker-1';
  const stops: (() => Promise<void>)[] = [];
  const close = async (): Promise<void> => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };
  try {
    const dir = await mkdtemp(join(tmpdir(), 'noderings-fleet-'));
    stops.push(() => rm(dir, { recursive: true, force: true }));
    const nats = await startNatsServer();
    stops.push(() => nats.stop());
    const controlPlaneLog: string[] = [];
    const controlPlane = await startControlPlane({
      database: { inMemory: true },
      secretKey: randomBytes(32),
      listen: { host: '127.0.0.1', port: 0 },
      logLevel: 'info',
      logDestination: new Writable({
        write(chunk: Buffer, _encoding, callback) {
          controlPlaneLog.push(...chunk.toString('utf8').split('\n').filter(Boolean));
          callback();
        },
      }),
      admin: STAFF,
      fleet: { natsUrl: nats.url, accountSeed: nats.authority.accountSeed },
    });
    stops.push(() => controlPlane.close());
    const api = new ControlPlaneClient(controlPlane.url);
    const provider = await registerVerifiedProvider(api, PROVIDER, STAFF, 'Fleet provider');
    const environment = await api.call<{ id: string }>('POST', '/api/v1/fleet/environments', 201, {
      as: provider,
      body: { name: 'production' },
    });
    const { token: installToken } = await api.call<{ token: string }>(
      'POST',
      `/api/v1/fleet/environments/${environment.id}/install-tokens`,
      201,
      { as: provider, body: { description: 'node agents' } },
    );
    const cluster = await api.call<{ id: string }>(
      'POST',
      `/api/v1/fleet/environments/${environment.id}/clusters`,
      201,
      { as: provider, body: { name: 'k3s-agents' } },
    );
    await api.call('PUT', `/api/v1/fleet/clusters/${cluster.id}/hosts/${nodeName}`, 200, { as: provider });
    const kubelet = await startKubeletSim({
      nodeName,
      pods: options.pods ?? 110,
      seed: 7,
      tokens: [{ token: KUBELET_TOKEN, user: 'system:serviceaccount:proxima-system:proxima-node-agent' }],
    });
    stops.push(() => kubelet.close());
    const kubeletTokenFile = join(dir, 'kubelet-token');
    const kubeletCaFile = join(dir, 'kubelet-ca.pem');
    await writeFile(kubeletTokenFile, KUBELET_TOKEN, { mode: 0o600 });
    await writeFile(kubeletCaFile, kubelet.caPem);
    return {
      nats,
      controlPlane,
      api,
      provider,
      environmentId: environment.id,
      clusterId: cluster.id,
      installToken,
      kubelet,
      nodeName,
      kubeletTokenFile,
      kubeletCaFile,
      dir,
      controlPlaneLog,
      close,
    };
  } catch (e: unknown) {
    await close();
    throw e;
  }
}
