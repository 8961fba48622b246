import { ALLOY_NAME, OPERATOR_NAME, OPERATOR_NAMESPACE, PVE_EXPORTER_NAME } from '@noderings/deploy';
import { CRD_GROUP } from '@noderings/kube';

import type { ApiClient } from '../api-client.js';
import type { Host } from '../host/host.js';
import type { ClusterState } from './cluster-state.js';
import {
  getJson,
  hasStackSecret,
  kubectl,
  readyCount,
  readyNodes,
  stackDeployment,
  type NodeList,
} from './kubectl.js';
import { calicoReadiness } from './phases/calico.js';
import { findAgent } from './phases/agent.js';
import { readProxmoxInstances, credentialSecretName } from './proxmox-instances.js';

type CheckStatus = 'pass' | 'fail' | 'warn' | 'skip';

interface VerifyCheck {
  readonly section: string;
  readonly name: string;
  readonly status: CheckStatus;
  readonly message: string;
}

/** `nr cluster verify -o json`. */
export interface VerifyReport {
  readonly agent_id: string;
  readonly sections: readonly { readonly name: string; readonly checks: readonly VerifyCheck[] }[];
}

export const VERIFY_SECTIONS = ['kubernetes', 'calico', 'agent', 'operator', 'platform'] as const;
export type VerifySection = (typeof VERIFY_SECTIONS)[number];

export interface VerifyInput {
  readonly host: Host;
  readonly api: ApiClient;
  readonly state: ClusterState;
  /** Only these sections (all by default). */
  readonly sections?: readonly VerifySection[];
}

type Check = Omit<VerifyCheck, 'section'>;
const pass = (name: string, message: string): Check => ({ name, status: 'pass', message });
const fail = (name: string, message: string): Check => ({ name, status: 'fail', message });
const warn = (name: string, message: string): Check => ({ name, status: 'warn', message });
const skip = (name: string, message: string): Check => ({ name, status: 'skip', message });

/**
 * The health gate of a registered cluster, section by section (the original CLI's, adapted: no Liqo,
 * no peering or offloading sections, an operator section for our stack). Warn and skip pass; a fail
 * fails the whole.
 */
export async function verifyCluster(input: VerifyInput): Promise<VerifyReport> {
  const wanted = input.sections ?? VERIFY_SECTIONS;
  const sections = [];
  for (const name of wanted) {
    let checks: Check[];
    try {
      checks = await SECTIONS[name](input);
    } catch (e: unknown) {
      checks = [fail('section', e instanceof Error ? e.message : String(e))];
    }
    sections.push({ name, checks: checks.map((c) => ({ section: name, ...c })) });
  }
  return { agent_id: input.state.agent_id ?? '', sections };
}

export function verifyPassed(report: VerifyReport): boolean {
  return report.sections.every((s) => s.checks.every((c) => c.status !== 'fail'));
}

const SECTIONS: Readonly<Record<VerifySection, (input: VerifyInput) => Promise<Check[]>>> = {
  kubernetes: async ({ host }) => {
    const version = await host.run(kubectl(['version', '-o', 'json']));
    if (version.exitCode !== 0)
      return [fail('api', version.stderr.trim() || 'the API does not answer'), skip('nodes', 'no API')];
    const server = (JSON.parse(version.stdout) as { serverVersion?: { gitVersion?: string } }).serverVersion
      ?.gitVersion;
    const ready = readyNodes(await getJson<NodeList>(host, ['nodes']));
    return [
      pass('api', `the API answers (${server ?? 'unknown version'})`),
      ready.length > 0 ? pass('nodes', `Ready: ${ready.join(', ')}`) : fail('nodes', 'no node is Ready'),
    ];
  },
  calico: async ({ host }) => {
    const namespace =
      (await getJson(host, ['namespace', 'calico-system'])) ??
      (await getJson(host, ['namespace', 'tigera-operator']));
    if (namespace === undefined)
      return [
        fail('namespace', 'neither calico-system nor tigera-operator exists'),
        skip('calico-node', 'no Calico'),
      ];
    const { ready, nodes } = await calicoReadiness({ host });
    return [
      pass('namespace', 'Calico is installed'),
      nodes > 0 && ready >= nodes
        ? pass('calico-node', `${String(ready)} of ${String(nodes)} nodes ready`)
        : fail('calico-node', `${String(ready)} of ${String(nodes)} nodes ready`),
    ];
  },
  agent: async ({ api, state }) => {
    if (state.agent_id === undefined) return [fail('provisioned', 'no agent id in the state file')];
    const agent = await findAgent({ api }, state.agent_id);
    if (agent === undefined) return [fail('provisioned', `the API has no agent ${state.agent_id}`)];
    const peering = agent.inboundPeeringState;
    return [
      agent.provisioned
        ? pass('provisioned', `agent ${agent.name} is provisioned`)
        : fail('provisioned', `agent ${agent.name} is not provisioned`),
      peering === 'INBOUND_PEERING_STATE_READY'
        ? pass('inbound-peering', 'the control plane reaches the cluster')
        : fail(
            'inbound-peering',
            `${peering}${agent.inboundPeeringError ? `: ${agent.inboundPeeringError}` : ''}`,
          ),
      agent.serviceStatus === 'SERVICE_STATUS_ONLINE'
        ? pass('service-status', 'online')
        : warn('service-status', `${agent.serviceStatus} (${agent.serviceStatusReason})`),
    ];
  },
  operator: async ({ host, state }) => {
    if (state.register_scope.skip_operator_install)
      return [skip('operator', 'registered with --skip-operator-install')];
    const checks: Check[] = [];
    checks.push(
      (await getJson(host, ['namespace', OPERATOR_NAMESPACE])) !== undefined
        ? pass('namespace', `${OPERATOR_NAMESPACE} exists`)
        : fail('namespace', `${OPERATOR_NAMESPACE} is missing`),
    );
    const resources = await host.run(kubectl(['api-resources', `--api-group=${CRD_GROUP}`, '-o', 'name']));
    const served = resources.exitCode === 0 ? resources.stdout.split('\n').filter((l) => l !== '') : [];
    checks.push(
      served.length > 0
        ? pass('crds', `${String(served.length)} ${CRD_GROUP} resources served`)
        : fail('crds', `the API serves no ${CRD_GROUP} resources`),
    );
    const deployment = await stackDeployment(host, OPERATOR_NAME);
    const available = readyCount(deployment);
    const desired = deployment?.spec?.replicas ?? 1;
    checks.push(
      deployment === undefined
        ? fail('operator-deployment', `deployment/${OPERATOR_NAME} is missing`)
        : available < 1
          ? fail('operator-deployment', `deployment/${OPERATOR_NAME} has no available replica`)
          : available < desired
            ? warn(
                'operator-deployment',
                `${String(available)} of ${String(desired)} replicas available (the standby is not)`,
              )
            : pass('operator-deployment', `${String(available)} of ${String(desired)} replicas available`),
    );
    for (const name of [PVE_EXPORTER_NAME, ALLOY_NAME]) {
      const metrics = await stackDeployment(host, name);
      checks.push(
        metrics === undefined
          ? fail(name, `deployment/${name} is missing: no metrics reach NodeRings`)
          : readyCount(metrics) >= 1
            ? pass(name, `deployment/${name} is available`)
            : fail(name, `deployment/${name} has no available replica`),
      );
    }
    const file = state.register_scope.proxmox_instances_file;
    if (file !== undefined) {
      const instances = await readProxmoxInstances(file).catch(() => []);
      for (const instance of instances) {
        const name = credentialSecretName(instance);
        checks.push(
          (await hasStackSecret(host, name))
            ? pass(`credentials-${instance.id}`, `Secret ${name} exists`)
            : fail(`credentials-${instance.id}`, `Secret ${OPERATOR_NAMESPACE}/${name} is missing`),
        );
      }
    }
    return checks;
  },
  platform: async ({ api, state }) => {
    if (!state.register_scope.register_platform)
      return [skip('platform', 'registered without --register-platform')];
    if (state.platform_id === undefined) return [fail('platform', 'no platform was registered')];
    const { platform } = await api.get<{ platform: { name: string; serviceStatus: string } }>(
      `/v1/platform/${state.platform_id}`,
    );
    const { nodes } = await api.get<{ nodes: { node: { name: string } }[] }>(
      `/v1/nodes?platformId=${state.platform_id}&pageSize=100`,
    );
    return [
      platform.serviceStatus === 'SERVICE_STATUS_ONLINE'
        ? pass('platform', `${platform.name} is online`)
        : warn('platform', `${platform.name} is ${platform.serviceStatus}`),
      nodes.length > 0
        ? pass('nodes', nodes.map((n) => n.node.name).join(', '))
        : fail('nodes', 'the platform has no node'),
    ];
  },
};

/** Text for `nr cluster verify`: a line per check, under its section. */
export function renderVerify(report: VerifyReport): string {
  const marks: Record<CheckStatus, string> = {
    pass: '[OK]  ',
    fail: '[FAIL]',
    warn: '[WARN]',
    skip: '[SKIP]',
  };
  return report.sections
    .map(
      (s) => `${s.name}\n${s.checks.map((c) => `  ${marks[c.status]} ${c.name}: ${c.message}\n`).join('')}`,
    )
    .join('');
}
