import type { Sandbox } from './sandbox.js';

const EMAIL_WIDTH = 22;

/** The commands of a provider's path with `nr`, against this sandbox. */
function nrTrial(sandbox: Sandbox): string[] {
  const { configDir, hostDir, instancesFile } = sandbox.nrTrial;
  const nr = `NR_SIMULATED_HOST=${hostDir} npm run nr -- --config-dir ${configDir}`;
  return [
    `  npm run nr -- --config-dir ${configDir} login --api-url ${sandbox.controlPlaneUrl}   # approve at /device as ${sandbox.credentials.provider.email}`,
    `  ${nr} cluster register --name agent-2 --agent-ip 192.0.2.20 --proxmox-instances-file ${instancesFile}`,
    `  ${nr} cluster verify     # then status, health, logs, deregister --yes --uninstall-k3s`,
    '  (--register-platform needs a Proxmox no platform has yet: the sandbox registered its pve-sim already)',
  ];
}

/** What `npm start` prints once the sandbox is ready: where everything is and how to sign in. */
export function sandboxSummary(sandbox: Sandbox, options: { readonly dashboardServed: boolean }): string {
  const { staff, provider, customer } = sandbox.credentials;
  const { offer } = sandbox.seeded;
  const seeded = sandbox.seeded.provider;
  const url = sandbox.controlPlaneUrl;
  const email = (account: { email: string }) => account.email.padEnd(EMAIL_WIDTH);
  const login = (account: { email: string; password: string }) =>
    `curl -s -X POST ${url}/v1/auth/login -H 'content-type: application/json' -d '${JSON.stringify({ email: account.email, password: account.password })}'`;
  const kept =
    sandbox.dataDir === undefined
      ? '  kept in memory: gone when it stops'
      : `  ${sandbox.reused ? 'reused from' : 'seeded afresh in'} ${sandbox.dataDir} (npm start -- --reset starts over)`;
  return [
    `NodeRings sandbox: ready on ${url}`,
    options.dashboardServed
      ? `  open ${url}/ in a browser for the dashboard; the API is described at ${url}/openapi.json`
      : `  the API (description at ${url}/openapi.json); the dashboard is not built, so it is not served`,
    kept,
    '',
    'Sign in with (the dashboard, or POST /v1/auth/login):',
    `  customer  ${email(customer)}  ${customer.password}  "${sandbox.seeded.customer.organizationName}" buys VMs`,
    `  provider  ${email(provider)}  ${provider.password}  "${seeded.organizationName}" sells them`,
    `  staff     ${email(staff)}  ${staff.password}`,
    `  e.g. ${login(customer)}`,
    '',
    `The provider "${seeded.organizationName}" (verified by staff), organization ${seeded.organizationId}:`,
    `  region    ${seeded.region.city}, ${seeded.region.datacenter}  ${seeded.region.id}`,
    `  agent     ${seeded.agent.name}  ${seeded.agent.id}  inbound peering READY (kube-sim)`,
    `  platform  ${seeded.platform.name}  ${seeded.platform.id}  ${seeded.platform.endpointUrl}`,
    ...seeded.nodes.map((n) => {
      const templates = offer.vmTemplates
        .filter((t) => t.node === n.name)
        .map((t) => `${t.distro} ${String(t.templateVmid)}`);
      return `  node      ${n.name}  ${n.id}  VMIDs from ${String(n.vmidSeed)}; templates ${templates.join(', ')}`;
    }),
    `  network   ${offer.network.name}  ${offer.network.prefixes.map((p) => p.cidr).join(', ')}`,
    `  cloud-init templates ${offer.cloudInitTemplates.map((t) => t.name).join(', ')}`,
    ...offer.plans.map(
      (p) => `  plan      ${p.name.padEnd(11)} ${p.code}  ${p.monthlyPrice} EUR a month  on the marketplace`,
    ),
    '',
    'The simulated provider:',
    `  pve-sim   ${sandbox.pveUrl}  (${String(seeded.nodes.length)} nodes)`,
    `            Authorization: PVEAPIToken=${sandbox.pveToken.id}=${sandbox.pveToken.secret}`,
    `            certificate SHA-256 fingerprint ${sandbox.pveFingerprint}`,
    `  exporter  ${sandbox.exporterUrl}/pve?target=${new URL(sandbox.pveUrl).host}  (metrics forwarded every 30 s)`,
    `  kube-sim  ${sandbox.kubeUrl}  (the agent cluster)` +
      (sandbox.kubeconfigPath === undefined ? '' : `  kubectl --kubeconfig ${sandbox.kubeconfigPath} get ns`),
    `  operator  pid ${String(sandbox.operatorPid)}, metrics on ${sandbox.operatorMetricsUrl}, logging as [operator]`,
    '',
    "Try nr, the provider's CLI, on a simulated host (a folder standing in for the agent VM; its k3s is a kube-sim):",
    ...nrTrial(sandbox),
    '',
    'Ctrl-C to stop.',
    '',
  ].join('\n');
}
