import {
  COMPUTE_CATEGORIES,
  evaluatePreflight,
  findCity,
  isDistro,
  nodeComputeTypeFor,
  type PreflightNodeFacts,
  type PreflightProxmoxFacts,
  type PreflightResult,
  type PreflightTemplateFacts,
} from '@noderings/domain';

import type { Page, PageResult } from '../../http/pagination.js';
import type { CloudInitCompileService } from '../cloud-init-templates/index.js';
import type { NetworkAvailabilityRepository, NetworkFreeAddresses } from '../ipam/index.js';
import {
  capacityStateOf,
  type CandidateNode,
  type CandidateNodeRepository,
  type NodeUsage,
} from '../placement/index.js';
import type { ProxmoxInventoryReading, ProxmoxInventoryRepository } from '../proxmox-inventory/index.js';
import type {
  NewPreflightResult,
  PlanForPreflight,
  PreflightFilter,
  PreflightRepository,
  StoredPreflightResult,
  VmTemplateForPreflight,
} from './preflight.repository.js';

/**
 * Gathers an organisation's facts in a handful of queries, evaluates every plan with the domain's rules
 * (packages/domain/src/preflight.ts) and stores the results the marketplace lists from.
 */
export class PreflightService {
  constructor(
    private readonly deps: {
      readonly results: Pick<
        PreflightRepository,
        'plansOf' | 'vmTemplatesOf' | 'replaceResults' | 'hasUnevaluatedPlans' | 'list'
      >;
      readonly nodes: Pick<CandidateNodeRepository, 'ofOrganization' | 'usageOfOrganization'>;
      readonly networks: Pick<NetworkAvailabilityRepository, 'ofOrganization'>;
      readonly cloudInit: Pick<CloudInitCompileService, 'compileProblems'>;
      readonly inventories: Pick<ProxmoxInventoryRepository, 'ofAgents'>;
    },
  ) {}

  /** Evaluates and stores every plan of the organisation; the results, in the plans' order. */
  async evaluateOrganization(organizationId: string): Promise<PreflightResult[]> {
    const plans = await this.deps.results.plansOf(organizationId);
    if (plans.length === 0) {
      await this.deps.results.replaceResults(organizationId, []);
      return [];
    }
    const [nodes, usage, networks, templates] = await Promise.all([
      this.deps.nodes.ofOrganization(organizationId),
      this.deps.nodes.usageOfOrganization(organizationId),
      this.deps.networks.ofOrganization(organizationId),
      this.deps.results.vmTemplatesOf(organizationId),
    ]);
    const facts = await this.#nodeFacts(organizationId, nodes, usage, networks, templates);
    const evaluated: NewPreflightResult[] = plans.map((plan) => {
      const planNodes = plan.nodeIds.flatMap((id) => facts.get(id) ?? []);
      const result = evaluatePreflight(planFacts(plan), planNodes);
      const ipv6Available = result.infrastructure.some(
        (entry, i) => entry.passed && (planNodes[i]?.network?.freeIpv6 ?? 0n) > 0n,
      );
      return { result, ipv6Available };
    });
    await this.deps.results.replaceResults(organizationId, evaluated);
    return evaluated.map((e) => e.result);
  }

  /** The stored results; a plan created or changed since its last evaluation is evaluated first. */
  async list(
    organizationId: string,
    filter: PreflightFilter,
    page: Page,
  ): Promise<PageResult<StoredPreflightResult>> {
    if (await this.deps.results.hasUnevaluatedPlans(organizationId))
      await this.evaluateOrganization(organizationId);
    return this.deps.results.list(organizationId, filter, page);
  }

  async #nodeFacts(
    organizationId: string,
    nodes: readonly CandidateNode[],
    usage: ReadonlyMap<string, NodeUsage>,
    networks: ReadonlyMap<string, NetworkFreeAddresses>,
    templates: readonly VmTemplateForPreflight[],
  ): Promise<Map<string, PreflightNodeFacts>> {
    const networkOf = (node: CandidateNode) =>
      node.network === undefined
        ? undefined
        : (networks.get(node.network.id) ?? { ipv4: 0n, ipv6: undefined });
    // Each cloud-init template is compiled once per answer to "does the VM get IPv6", not once per node.
    const compileKey = (t: VmTemplateForPreflight, withIpv6: boolean) =>
      `${t.cloudInitTemplateId}/${String(withIpv6)}`;
    const nodeById = new Map(nodes.map((n) => [n.id, n]));
    const checks = new Map<string, { templateId: string; withIpv6: boolean }>();
    for (const t of templates) {
      const node = nodeById.get(t.nodeId);
      if (node === undefined) continue;
      const withIpv6 = networkOf(node)?.ipv6 !== undefined;
      checks.set(compileKey(t, withIpv6), { templateId: t.cloudInitTemplateId, withIpv6 });
    }
    const agentIds = [...new Set(nodes.flatMap((n) => (n.agent === undefined ? [] : [n.agent.id])))];
    const [problems, inventories] = await Promise.all([
      this.deps.cloudInit.compileProblems(organizationId, [...checks.values()]),
      this.deps.inventories.ofAgents(agentIds),
    ]);
    const problemsByKey = new Map([...checks.keys()].map((key, i) => [key, problems[i] ?? []]));

    const templatesByNode = new Map<string, PreflightTemplateFacts[]>();
    for (const t of templates) {
      const node = nodeById.get(t.nodeId);
      if (node === undefined || !isDistro(t.distro)) continue;
      const withIpv6 = networkOf(node)?.ipv6 !== undefined;
      const list = templatesByNode.get(t.nodeId) ?? [];
      list.push({
        name: t.name,
        distro: t.distro,
        templateVmid: t.templateVmid,
        cloudInitTemplateName: t.cloudInitTemplateName,
        cloudInitProblems: problemsByKey.get(compileKey(t, withIpv6)) ?? [],
      });
      templatesByNode.set(t.nodeId, list);
    }

    return new Map(
      nodes.map((node) => {
        const network = networkOf(node);
        const pool = node.inventory.vmStoragePool;
        const facts: PreflightNodeFacts = {
          id: node.id,
          name: node.name,
          regionId: node.regionId,
          serviceStatus: node.serviceStatus,
          maintenanceMode: node.maintenanceMode,
          capacity: capacityStateOf(node, usage.get(node.id)),
          vmStorage: {
            storageId: node.vmStorageDestination,
            pool:
              pool === undefined || pool.totalBytes <= 0
                ? undefined
                : { totalBytes: wholeBytes(pool.totalBytes), usedBytes: wholeBytes(pool.allocatedBytes) },
          },
          templates: templatesByNode.get(node.id) ?? [],
          network:
            node.network === undefined || network === undefined
              ? undefined
              : { name: node.network.name, freeIpv4: network.ipv4, freeIpv6: network.ipv6 },
          platform: {
            id: node.platformId,
            name: node.platform.name,
            serviceStatus: node.platform.serviceStatus,
            metricsReported: node.platform.metricsReported,
            agent: node.agent,
          },
          proxmox: proxmoxFactsOf(
            node.name,
            node.agent === undefined ? undefined : inventories.get(node.agent.id),
          ),
        };
        return [node.id, facts];
      }),
    );
  }
}

function proxmoxFactsOf(
  nodeName: string,
  reading: ProxmoxInventoryReading | undefined,
): PreflightProxmoxFacts {
  if (reading === undefined) return { reported: false, why: 'the platform is linked to no agent' };
  if (!reading.reported) return reading;
  const node = reading.nodes.find((n) => n.name === nodeName);
  return {
    reported: true,
    nodeNames: reading.nodes.map((n) => n.name),
    node: node === undefined ? undefined : { templateVmids: node.templateVmids },
  };
}

function planFacts(plan: PlanForPreflight) {
  const category = COMPUTE_CATEGORIES.find((c) => c === plan.computeCategory);
  if (category === undefined)
    throw new Error(`plans.compute_category holds an unknown value: ${plan.computeCategory}`);
  return {
    id: plan.id,
    code: plan.code,
    name: plan.name,
    vcpus: plan.vcpus,
    ramGb: plan.ramGb,
    diskGb: plan.diskGb,
    nodeComputeType: nodeComputeTypeFor(category),
    isPublic: plan.isPublic,
    providerVerified: plan.providerVerified,
    priceAmounts: plan.priceAmounts,
    regions: plan.regions.map((r) => {
      const city = findCity(r.cityId);
      return { id: r.id, label: city === undefined ? r.cityId : `${city.name}, ${city.country}` };
    }),
  };
}

function wholeBytes(bytes: number): bigint {
  return BigInt(Math.floor(bytes));
}
