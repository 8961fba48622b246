import type { Caller, ControlPlaneClient } from './control-plane-client.js';
import type { SeededProvider } from './provider-seed.js';
import { SandboxError } from './sandbox-error.js';

/** A template VM on the provider's Proxmox, as `pvesh get /cluster/resources --type vm` lists it. */
export interface ProxmoxTemplate {
  readonly node: string;
  readonly vmid: number;
  readonly name: string;
}

export interface SeededOffer {
  readonly network: {
    readonly id: string;
    readonly name: string;
    readonly prefixes: readonly { readonly id: string; readonly cidr: string }[];
  };
  readonly cloudInitTemplates: readonly { readonly id: string; readonly name: string }[];
  readonly vmTemplates: readonly {
    readonly id: string;
    readonly name: string;
    readonly distro: string;
    readonly node: string;
    readonly templateVmid: number;
  }[];
  readonly plans: readonly {
    readonly id: string;
    readonly name: string;
    readonly code: string;
    /** In EUR, per month. */
    readonly monthlyPrice: string;
  }[];
}

const NETWORK = {
  name: 'public',
  // Documentation addresses (RFC 5737, RFC 3849): nothing in the sandbox routes anywhere.
  dnsServers: ['192.0.2.53', '2001:db8::53'],
};
const PREFIXES = [
  { cidr: '203.0.113.0/24', gateway: '203.0.113.1', description: 'public IPv4, one address per VM' },
  {
    cidr: '2001:db8:100::/48',
    gateway: '2001:db8:100::1',
    // Each VM gets a /64 of its own, as providers route IPv6 to customers.
    vmAssignmentPrefixLength: 64,
    description: 'public IPv6, a /64 per VM',
  },
];

/**
 * pve-sim's cloud-init templates (its default scenario has both on every node), with the distro they
 * carry and the platform's seed cloud-init template that suits them.
 */
const TEMPLATE_IMAGES: Readonly<Record<string, { readonly distro: string; readonly cloudInit: string }>> = {
  'ubuntu-2404-cloudinit': { distro: 'DISTRO_UBUNTU_24_04', cloudInit: 'Ubuntu' },
  'debian-12-cloudinit': { distro: 'DISTRO_DEBIAN_12', cloudInit: 'Debian' },
};
/** The provider's copies are named after the seeds, without the suffix the platform gives them. */
const SEED_SUFFIX = ' (seed)';

const PLANS = [
  { name: 'Starter', vcpus: 1, ramGb: 1, diskGb: 10, monthlyPrice: '4' },
  { name: 'Standard', vcpus: 2, ramGb: 4, diskGb: 40, monthlyPrice: '12' },
  { name: 'Performance', vcpus: 4, ramGb: 8, diskGb: 80, monthlyPrice: '24' },
];
const CURRENCY = 'EUR';

/**
 * What the provider sells, made through the API: an IPv4 and IPv6 network on every node, its own copies
 * of the platform's Ubuntu and Debian cloud-init templates, a VM template per template VM found on its
 * Proxmox, and three public plans over all its nodes.
 */
export async function seedOffer(
  api: ControlPlaneClient,
  provider: Caller,
  input: { readonly seeded: SeededProvider; readonly templates: readonly ProxmoxTemplate[] },
): Promise<SeededOffer> {
  const nodeIds = input.seeded.nodes.map((n) => n.id);
  const network = await seedNetwork(api, provider, nodeIds);
  const cloudInitTemplates = await copySeedCloudInitTemplates(api, provider);
  const vmTemplates = [];
  for (const template of input.templates) {
    const image = TEMPLATE_IMAGES[template.name];
    const node = input.seeded.nodes.find((n) => n.name === template.node);
    const cloudInit = cloudInitTemplates.find((t) => t.name === image?.cloudInit);
    if (image === undefined || node === undefined || cloudInit === undefined) continue;
    const { vmTemplate } = await api.call<{ vmTemplate: { id: string; name: string } }>(
      'POST',
      '/v1/vmtemplate',
      201,
      {
        as: provider,
        body: {
          name: `${template.name} on ${template.node}`,
          distro: image.distro,
          templateId: template.vmid,
          nodeId: node.id,
          cloudInitTemplateId: cloudInit.id,
        },
      },
    );
    vmTemplates.push({
      id: vmTemplate.id,
      name: vmTemplate.name,
      distro: image.distro,
      node: template.node,
      templateVmid: template.vmid,
    });
  }
  const plans = [];
  for (const spec of PLANS) {
    const { plan } = await api.call<{ plan: { id: string; name: string; code: string } }>(
      'POST',
      '/v1/plans',
      201,
      {
        as: provider,
        body: {
          name: spec.name,
          computeType: 'COMPUTE_TYPE_GENERAL_COMPUTE',
          vcpus: spec.vcpus,
          ramGb: spec.ramGb,
          diskGb: spec.diskGb,
          planPrices: [
            { billingPeriod: 'BILLING_PERIOD_MONTH', currency: CURRENCY, unitAmount: spec.monthlyPrice },
          ],
          regionId: input.seeded.region.id,
          nodeIds,
          isPublic: true,
        },
      },
    );
    plans.push({ id: plan.id, name: plan.name, code: plan.code, monthlyPrice: spec.monthlyPrice });
  }
  return { network, cloudInitTemplates, vmTemplates, plans };
}

async function seedNetwork(
  api: ControlPlaneClient,
  provider: Caller,
  nodeIds: readonly string[],
): Promise<SeededOffer['network']> {
  const { network } = await api.call<{ network: { id: string; name: string } }>(
    'POST',
    '/v1/ipam/networks',
    201,
    { as: provider, body: NETWORK },
  );
  const prefixes = [];
  for (const body of PREFIXES) {
    const { prefix } = await api.call<{ prefix: { id: string; cidr: string } }>(
      'POST',
      '/v1/ipam/prefixes',
      201,
      { as: provider, body: { ...body, networkId: network.id } },
    );
    prefixes.push({ id: prefix.id, cidr: prefix.cidr });
  }
  await api.call('POST', `/v1/ipam/networks/${network.id}/assign-node`, 200, {
    as: provider,
    body: { nodeIds },
  });
  return { id: network.id, name: network.name, prefixes };
}

/** The provider's own copies of the platform's seed templates (seeds can only be copied). */
async function copySeedCloudInitTemplates(
  api: ControlPlaneClient,
  provider: Caller,
): Promise<SeededOffer['cloudInitTemplates']> {
  const { cloudInitTemplates: seeds } = await api.call<{
    cloudInitTemplates: { id: string; name: string }[];
  }>('GET', '/v1/cloudinittemplates?filterIsTemplate=true', 200, { as: provider });
  const wanted = [...new Set(Object.values(TEMPLATE_IMAGES).map((image) => image.cloudInit))];
  const copies = [];
  for (const name of wanted) {
    const seed = seeds.find((s) => s.name === `${name}${SEED_SUFFIX}`);
    if (seed === undefined)
      throw new SandboxError(
        'SEED_REQUEST_FAILED',
        `the platform has no seed cloud-init template "${name}${SEED_SUFFIX}" (it has ${seeds.map((s) => `"${s.name}"`).join(', ')})`,
      );
    const { cloudInitTemplate } = await api.call<{ cloudInitTemplate: { id: string; name: string } }>(
      'POST',
      '/v1/cloudinittemplate',
      201,
      { as: provider, body: { name, copyFromId: seed.id } },
    );
    copies.push({ id: cloudInitTemplate.id, name: cloudInitTemplate.name });
  }
  return copies;
}
