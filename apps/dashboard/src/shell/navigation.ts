import type { OrganizationType } from '../api/api-resources.js';

interface NavItem {
  readonly to: string;
  readonly label: string;
}

export interface NavGroup {
  readonly label: string;
  readonly items: readonly NavItem[];
}

/** The dashboard's paths, in one place so links and routes cannot drift apart. */
export const paths = {
  login: '/login',
  register: '/register',
  newOrganization: '/organizations/new',
  device: '/device',
  marketplace: '/marketplace',
  offers: (planCode: string) => `/marketplace/${encodeURIComponent(planCode)}`,
  order: (planId: string, regionId?: string) =>
    `/order/${encodeURIComponent(planId)}${regionId === undefined ? '' : `?regionId=${encodeURIComponent(regionId)}`}`,
  vms: '/vms',
  vm: (id: string) => `/vms/${encodeURIComponent(id)}`,
  firewall: '/firewall',
  ruleset: (id: string) => `/firewall/${encodeURIComponent(id)}`,
  sshKeys: '/ssh-keys',
  onboarding: '/onboarding',
  agents: '/infrastructure/agents',
  regions: '/infrastructure/regions',
  platformsNodes: '/infrastructure/platforms-nodes',
  ipam: '/infrastructure/ipam',
  vmTemplates: '/infrastructure/vm-templates',
  cloudInitTemplates: '/infrastructure/cloud-init-templates',
  cloudInitTemplate: (id: string) => `/infrastructure/cloud-init-templates/${encodeURIComponent(id)}`,
  plans: '/plans',
  providerVms: '/provider/virtual-machines',
} as const;

const CUSTOMER_NAVIGATION: readonly NavGroup[] = [
  {
    label: 'Compute',
    items: [
      { to: paths.marketplace, label: 'Marketplace' },
      { to: paths.vms, label: 'My VMs' },
    ],
  },
  {
    label: 'Security',
    items: [
      { to: paths.firewall, label: 'Firewall' },
      { to: paths.sshKeys, label: 'SSH keys' },
    ],
  },
];

const PROVIDER_NAVIGATION: readonly NavGroup[] = [
  { label: 'Overview', items: [{ to: paths.onboarding, label: 'Getting started' }] },
  {
    label: 'Infrastructure',
    items: [
      { to: paths.regions, label: 'Regions' },
      { to: paths.agents, label: 'Agents' },
      { to: paths.platformsNodes, label: 'Platforms & nodes' },
      { to: paths.ipam, label: 'IPAM' },
      { to: paths.cloudInitTemplates, label: 'Cloud-init templates' },
      { to: paths.vmTemplates, label: 'VM templates' },
    ],
  },
  {
    label: 'Sales',
    items: [
      { to: paths.plans, label: 'Plans & preflight' },
      { to: paths.providerVms, label: 'Customer VMs' },
    ],
  },
];

/** What a member of an organisation of this type can go to. */
export function navigationFor(type: OrganizationType): readonly NavGroup[] {
  return type === 'ORGANIZATION_TYPE_PROVIDER' ? PROVIDER_NAVIGATION : CUSTOMER_NAVIGATION;
}

/** Where signing in (or switching to) an organisation of this type lands. */
export function homeFor(type: OrganizationType): string {
  return type === 'ORGANIZATION_TYPE_PROVIDER' ? paths.onboarding : paths.vms;
}
