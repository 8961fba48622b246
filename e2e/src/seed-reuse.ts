import type { Caller, ControlPlaneClient } from './control-plane-client.js';
import { uploadInboundPeeringConfig } from './provider-seed.js';
import { inconsistent } from './sandbox-data-dir.js';
import { SandboxError } from './sandbox-error.js';
import type { SandboxLog } from './sandbox-log.js';
import { DEMO_PASSWORD, PROVIDER_EMAIL } from './sandbox-seed.js';
import type { SeedRecord } from './seed-record.js';

export interface SeedReuseInput {
  readonly dataDir: string;
  /** Where pve-sim and kube-sim listen now. */
  readonly pveUrl: string;
  readonly kubeUrl: string;
  readonly prepareAgentCluster: (agentId: string) => Promise<string>;
  readonly log: SandboxLog;
}

/**
 * Takes up the seed a previous start left: checks that the database is the one the record describes (the
 * provider signs in to the recorded organisation), and points the control plane at pve-sim and kube-sim
 * again if they listen elsewhere this time (the platform's endpoint, the agent's inbound kubeconfig).
 * Returns the provider's session.
 */
export async function reuseSeed(
  api: ControlPlaneClient,
  record: SeedRecord,
  input: SeedReuseInput,
): Promise<Caller> {
  const { provider } = record.seeded;
  let session: { token: string; organizationId: string };
  try {
    session = await api.call('POST', '/v1/auth/login', 200, {
      body: { email: PROVIDER_EMAIL, password: DEMO_PASSWORD },
    });
  } catch (e: unknown) {
    if (!(e instanceof SandboxError)) throw e;
    throw inconsistent(input.dataDir, `its database does not let ${PROVIDER_EMAIL} sign in (${e.message})`);
  }
  if (session.organizationId !== provider.organizationId)
    throw inconsistent(
      input.dataDir,
      `its database has another organisation for ${PROVIDER_EMAIL} than ${provider.organizationId}`,
    );
  const caller = { token: session.token, organizationId: provider.organizationId };
  if (record.kubeUrl !== input.kubeUrl) {
    input.log.progress(`kube-sim moved from ${record.kubeUrl}: uploading the agent's kubeconfig again`);
    const kubeconfig = await input.prepareAgentCluster(provider.agent.id);
    await uploadInboundPeeringConfig(api, caller, provider.agent.id, kubeconfig);
  }
  if (record.pveUrl !== input.pveUrl) {
    input.log.progress(`pve-sim moved from ${record.pveUrl}: pointing the platform at ${input.pveUrl}`);
    await api.call('PATCH', `/v1/platform/${provider.platform.id}`, 200, {
      as: caller,
      body: { endpointUrl: input.pveUrl },
    });
  }
  return caller;
}
