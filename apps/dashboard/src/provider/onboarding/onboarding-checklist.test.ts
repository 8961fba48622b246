import { describe, expect, it } from 'vitest';

import type {
  Agent,
  CloudInitTemplate,
  HypervisorNode,
  IpamNetwork,
  IpamPrefix,
  Plan,
  Platform,
  PlanPreflight,
  Region,
  VmTemplate,
} from '../../api/api-resources.js';
import { onboardingChecklist, type OnboardingFacts } from './onboarding-checklist.js';

const nothing: OnboardingFacts = {
  organizationVerified: false,
  regions: [],
  agents: [],
  platforms: [],
  nodes: [],
  networks: [],
  prefixes: [],
  cloudInitTemplates: [],
  vmTemplates: [],
  plans: [],
  preflight: [],
};

const agent = (over: Partial<Agent> = {}) =>
  ({
    id: 'a',
    name: 'fra',
    provisioned: true,
    inboundPeeringState: 'INBOUND_PEERING_STATE_READY',
    inboundPeeringError: '',
    ...over,
  }) as Agent;
const node = (over: Partial<HypervisorNode> = {}) =>
  ({
    id: 'n1',
    name: 'pve1',
    serviceStatus: 'SERVICE_STATUS_ONLINE',
    maintenanceMode: false,
    ...over,
  }) as HypervisorNode;

const everything: OnboardingFacts = {
  organizationVerified: true,
  regions: [
    {
      id: 'r',
      cityCountry: { id: 'de-fra', cityName: 'Frankfurt', countryName: 'Germany' },
      datacenter: { id: 'd', name: 'Own facility' },
    } as Region,
  ],
  agents: [agent()],
  platforms: [{ id: 'p', name: 'pve', agentId: 'a' } as Platform],
  nodes: [node()],
  networks: [
    {
      id: 'net',
      name: 'public',
      dnsServers: [],
      macAddressPrefix: '',
      nodes: [{ id: 'n1', name: 'pve1', platformId: 'p', regionId: 'r' }],
    } as Partial<IpamNetwork> as IpamNetwork,
  ],
  prefixes: [{ id: 'p4', networkId: 'net', family: 'IP_FAMILY_IPV4' } as IpamPrefix],
  cloudInitTemplates: [
    { id: 'seed', name: 'Ubuntu (seed)', isTemplate: true } as CloudInitTemplate,
    { id: 'own', name: 'ubuntu', isTemplate: false } as CloudInitTemplate,
  ],
  vmTemplates: [{ id: 't', nodeId: 'n1' } as VmTemplate],
  plans: [{ id: 'plan', isPublic: true, status: 'STATUS_ACTIVE' } as Plan],
  preflight: [
    { planId: 'plan', planName: 'Standard', marketplaceReady: true, summaryNote: 'ok' } as PlanPreflight,
  ],
};

const done = (facts: OnboardingFacts) =>
  Object.fromEntries(onboardingChecklist(facts).map((step) => [step.id, step.done]));

describe('the onboarding checklist', () => {
  it('lists the phases of seed 002 in order, none done for a new provider', () => {
    const steps = onboardingChecklist(nothing);
    expect(steps.map((s) => s.id)).toEqual([
      'organization-verified',
      'region',
      'agent-created',
      'agent-connected',
      'platform',
      'nodes-online',
      'ipam',
      'cloud-init',
      'vm-templates',
      'plans',
      'preflight',
    ]);
    expect(steps.every((s) => !s.done)).toBe(true);
  });

  it('is all done for a provider whose plan passes preflight', () => {
    expect(Object.values(done(everything)).every(Boolean)).toBe(true);
  });

  it('needs the agent installed and peered, not only created', () => {
    const steps = done({
      ...everything,
      agents: [agent({ inboundPeeringState: 'INBOUND_PEERING_STATE_PENDING' })],
    });
    expect(steps['agent-created']).toBe(true);
    expect(steps['agent-connected']).toBe(false);
    const failed = onboardingChecklist({
      ...everything,
      agents: [
        agent({ inboundPeeringState: 'INBOUND_PEERING_STATE_FAILED', inboundPeeringError: 'no route' }),
      ],
    }).find((s) => s.id === 'agent-connected');
    expect(failed?.detail).toMatch(/no route/);
  });

  it('does not count nodes in maintenance or offline as online', () => {
    expect(
      done({
        ...everything,
        nodes: [node({ maintenanceMode: true }), node({ serviceStatus: 'SERVICE_STATUS_OFFLINE' })],
      })['nodes-online'],
    ).toBe(false);
  });

  it('needs a network with nodes and an IPv4 prefix', () => {
    expect(
      done({
        ...everything,
        prefixes: [{ id: 'p6', networkId: 'net', family: 'IP_FAMILY_IPV6' } as IpamPrefix],
      }).ipam,
    ).toBe(false);
    expect(
      done({
        ...everything,
        networks: [{ id: 'net', name: 'public', nodes: [] } as Partial<IpamNetwork> as IpamNetwork],
      }).ipam,
    ).toBe(false);
  });

  it('counts only the provider’s own cloud-init templates, not the seeds', () => {
    expect(
      done({ ...everything, cloudInitTemplates: everything.cloudInitTemplates.slice(0, 1) })['cloud-init'],
    ).toBe(false);
  });

  it('is green on preflight only when every plan is ready, and says which is not', () => {
    const preflight = [
      ...everything.preflight,
      {
        planId: 'p2',
        planName: 'Big',
        marketplaceReady: false,
        summaryNote: 'No node has room.',
      } as PlanPreflight,
    ];
    const step = onboardingChecklist({ ...everything, preflight }).find((s) => s.id === 'preflight');
    expect(step?.done).toBe(false);
    expect(step?.detail).toBe('1 of 2 plans are marketplace-ready; Big: No node has room.');
  });
});
