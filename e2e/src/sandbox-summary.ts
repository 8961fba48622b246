import type { Sandbox } from './sandbox.js';

/** What `npm start` prints once the sandbox is up: where everything is and how to sign in. */
export function sandboxSummary(sandbox: Sandbox, dataDir: string): string {
  const { staff, provider } = sandbox.credentials;
  const { seeded } = sandbox;
  const url = sandbox.controlPlaneUrl;
  const login = (account: { email: string; password: string }) =>
    `curl -s -X POST ${url}/v1/auth/login -H 'content-type: application/json' -d '${JSON.stringify({ email: account.email, password: account.password })}'`;
  return [
    `NodeRings sandbox: control plane ${url} (API description ${url}/openapi.json)`,
    `  data in ${dataDir}, emptied at every start: this is a fresh seed`,
    '',
    'Sign in (POST /v1/auth/login; passwords are new at every start):',
    `  staff     ${staff.email}  ${staff.password}`,
    `  provider  ${provider.email}  ${provider.password}  organization ${provider.organizationId}`,
    `  e.g. ${login(provider)}`,
    '',
    `Seeded for the provider "${seeded.organizationName}" (verified by staff):`,
    `  region    ${seeded.region.city}, ${seeded.region.datacenter}  ${seeded.region.id}`,
    `  agent     ${seeded.agent.name}  ${seeded.agent.id}  inbound peering READY (kube-sim)`,
    `  platform  ${seeded.platform.name}  ${seeded.platform.id}  ${seeded.platform.endpointUrl}`,
    ...seeded.nodes.map((n) => `  node      ${n.name}  ${n.id}  VMIDs from ${String(n.vmidSeed)}`),
    '',
    'The simulated provider:',
    `  pve-sim   ${sandbox.pveUrl}  (${String(seeded.nodes.length)} nodes)`,
    `            Authorization: PVEAPIToken=${sandbox.pveToken.id}=${sandbox.pveToken.secret}`,
    `            certificate SHA-256 fingerprint ${sandbox.pveFingerprint}`,
    `  exporter  ${sandbox.exporterUrl}/pve?target=${new URL(sandbox.pveUrl).host}  (metrics forwarded every 30 s)`,
    `  kube-sim  ${sandbox.kubeUrl}  (the agent cluster)` +
      (sandbox.kubeconfigPath === undefined ? '' : `  kubectl --kubeconfig ${sandbox.kubeconfigPath} get ns`),
    '',
    'Ctrl-C to stop.',
    '',
  ].join('\n');
}
