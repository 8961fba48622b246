import type { Caller, ControlPlaneClient } from './control-plane-client.js';
import { seedOffer, type ProxmoxTemplate, type SeededOffer } from './offer-seed.js';
import { seedProvider, type Account, type SeededProvider } from './provider-seed.js';

/** The demo logins: fixed, so that they work at every start and can be written down anywhere. */
export const DEMO_PASSWORD = 'sandbox-password';
export const PROVIDER_EMAIL = 'provider@sandbox.local';
export const CUSTOMER_EMAIL = 'customer@sandbox.local';
/** Staff has a password of its own, new at each fresh seed: it can verify any organisation. */
export const STAFF_EMAIL = 'staff@sandbox.local';

const CUSTOMER_ORGANIZATION_NAME = 'Sandbox Customer';

export interface SeededSandbox {
  readonly provider: SeededProvider;
  readonly offer: SeededOffer;
  readonly customer: { readonly organizationId: string; readonly organizationName: string };
}

export interface SandboxSeedInput {
  readonly staff: Account;
  readonly pveUrl: string;
  /** The simulated cluster's node names, as `pvesh get /nodes` lists them. */
  readonly pveNodes: readonly string[];
  /** The template VMs on the simulated cluster. */
  readonly pveTemplates: readonly ProxmoxTemplate[];
  /** Sets the agent cluster up for the new agent and returns the kubeconfig the provider uploads. */
  readonly prepareAgentCluster: (agentId: string) => Promise<string>;
}

/**
 * Everything a newcomer needs to buy a VM, made through the public API: a verified provider with its
 * infrastructure and offer (see `seedProvider` and `seedOffer`) and a customer organisation, both with
 * the demo logins. Returns the provider's session too, for what the sandbox sets up next.
 */
export async function seedSandbox(
  api: ControlPlaneClient,
  input: SandboxSeedInput,
): Promise<{ readonly seeded: SeededSandbox; readonly providerSession: Caller }> {
  const { provider, session } = await seedProvider(api, {
    staff: input.staff,
    provider: { email: PROVIDER_EMAIL, password: DEMO_PASSWORD },
    pveUrl: input.pveUrl,
    pveNodes: input.pveNodes,
    prepareAgentCluster: input.prepareAgentCluster,
  });
  const offer = await seedOffer(api, session, { seeded: provider, templates: input.pveTemplates });
  const customer = await api.call<{ organization: { id: string; name: string } }>(
    'POST',
    '/v1/auth/register',
    201,
    {
      body: {
        email: CUSTOMER_EMAIL,
        password: DEMO_PASSWORD,
        organizationName: CUSTOMER_ORGANIZATION_NAME,
        organizationType: 'ORGANIZATION_TYPE_CLIENT',
      },
    },
  );
  return {
    seeded: {
      provider,
      offer,
      customer: { organizationId: customer.organization.id, organizationName: customer.organization.name },
    },
    providerSession: session,
  };
}
