import { useQuery } from '@tanstack/react-query';

import type {
  Agent,
  CloudInitTemplate,
  HypervisorNode,
  IpamNetwork,
  IpamPrefix,
  Plan,
  Platform,
  PreflightAnswer,
  ProviderVirtualMachine,
  Region,
  VmTemplate,
} from '../api/api-resources.js';
import { useApi } from '../auth/session-context.js';

/** Lists read whole (the API's largest page): a provider's infrastructure is counted in dozens. */
const ALL = { pageSize: 100 } as const;

export const providerKeys = {
  agents: ['agents'],
  regions: ['regions'],
  platforms: ['platforms'],
  nodes: ['nodes'],
  networks: ['ipam-networks'],
  prefixes: ['ipam-prefixes'],
  vmTemplates: ['vm-templates'],
  cloudInitTemplates: ['cloud-init-templates'],
  plans: ['plans'],
  preflight: ['preflight'],
  providerVms: ['provider-vms'],
} as const;

/** How often preflight results are read again; the control plane re-evaluates them on its own. */
const PREFLIGHT_REFRESH_MS = 30_000;
const PROVIDER_VMS_REFRESH_MS = 5_000;

export function useAgents(options: { refetchInterval?: number } = {}) {
  const api = useApi();
  return useQuery({
    queryKey: providerKeys.agents,
    queryFn: async () =>
      (await api.get<{ agents: { agent: Agent }[] }>('/v1/agents', ALL)).agents.map((a) => a.agent),
    ...options,
  });
}

export function useRegions() {
  const api = useApi();
  return useQuery({
    queryKey: providerKeys.regions,
    queryFn: async () => (await api.get<{ regions: Region[] }>('/v1/regions', ALL)).regions,
  });
}

export function usePlatforms(options: { refetchInterval?: number } = {}) {
  const api = useApi();
  return useQuery({
    ...options,
    queryKey: providerKeys.platforms,
    queryFn: async () => (await api.get<{ platforms: Platform[] }>('/v1/platforms', ALL)).platforms,
  });
}

export function useNodes(options: { refetchInterval?: number } = {}) {
  const api = useApi();
  return useQuery({
    ...options,
    queryKey: providerKeys.nodes,
    queryFn: async () =>
      (await api.get<{ nodes: { node: HypervisorNode }[] }>('/v1/nodes', ALL)).nodes.map((n) => n.node),
  });
}

export function useNetworks() {
  const api = useApi();
  return useQuery({
    queryKey: providerKeys.networks,
    queryFn: async () => (await api.get<{ networks: IpamNetwork[] }>('/v1/ipam/networks', ALL)).networks,
  });
}

export function usePrefixes() {
  const api = useApi();
  return useQuery({
    queryKey: providerKeys.prefixes,
    queryFn: async () => (await api.get<{ prefixes: IpamPrefix[] }>('/v1/ipam/prefixes', ALL)).prefixes,
  });
}

export function useVmTemplates() {
  const api = useApi();
  return useQuery({
    queryKey: providerKeys.vmTemplates,
    queryFn: async () => (await api.get<{ vmTemplates: VmTemplate[] }>('/v1/vmtemplates', ALL)).vmTemplates,
  });
}

/** The platform's seeds (isTemplate) and the organisation's own templates. */
export function useCloudInitTemplates() {
  const api = useApi();
  return useQuery({
    queryKey: providerKeys.cloudInitTemplates,
    queryFn: async () =>
      (await api.get<{ cloudInitTemplates: CloudInitTemplate[] }>('/v1/cloudinittemplates', ALL))
        .cloudInitTemplates,
  });
}

export function usePlans() {
  const api = useApi();
  return useQuery({
    queryKey: providerKeys.plans,
    queryFn: async () => (await api.get<{ plans: Plan[] }>('/v1/plans', ALL)).plans,
  });
}

export function usePreflight() {
  const api = useApi();
  return useQuery({
    queryKey: providerKeys.preflight,
    queryFn: () => api.get<PreflightAnswer>('/v1/provider/preflight-checks', ALL),
    refetchInterval: PREFLIGHT_REFRESH_MS,
  });
}

export function useProviderVms(options: { poll?: boolean } = {}) {
  const api = useApi();
  return useQuery({
    queryKey: providerKeys.providerVms,
    queryFn: async () =>
      (await api.get<{ virtualMachines: ProviderVirtualMachine[] }>('/v1/provider/virtual-machines', ALL))
        .virtualMachines,
    ...(options.poll === true && { refetchInterval: PROVIDER_VMS_REFRESH_MS }),
  });
}
