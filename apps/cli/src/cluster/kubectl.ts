import { OPERATOR_NAMESPACE, toYaml } from '@noderings/deploy';
import type { KubeObject } from '@noderings/kube';

import { runChecked, type Host, type HostCommand } from '../host/host.js';

/** The field manager of everything `nr` applies: `kubectl get -o yaml --show-managed-fields` names it. */
const FIELD_MANAGER = 'nr';

/** `k3s kubectl …` as root: k3s' kubeconfig is root's alone (0600). */
export function kubectl(args: readonly string[], stdin?: string): HostCommand {
  return { argv: ['k3s', 'kubectl', ...args], asRoot: true, ...(stdin === undefined ? {} : { stdin }) };
}

/** Server-side apply of a YAML stream from stdin: idempotent, and it takes over fields from other managers. */
export function applyCommand(yaml: string): HostCommand {
  return kubectl(
    ['apply', '--server-side', `--field-manager=${FIELD_MANAGER}`, '--force-conflicts', '-f', '-'],
    yaml,
  );
}

export async function applyObjects(host: Host, objects: readonly KubeObject[]): Promise<void> {
  await runChecked(host, applyCommand(toYaml(objects)));
}

/** `kubectl get … -o json`, or undefined when it is not found (or the API does not answer). */
export async function getJson<T>(host: Host, args: readonly string[]): Promise<T | undefined> {
  const result = await host.run(kubectl(['get', ...args, '-o', 'json']));
  if (result.exitCode !== 0) return undefined;
  return JSON.parse(result.stdout) as T;
}

export interface WorkloadStatus {
  readonly metadata?: { generation?: number };
  readonly spec?: { replicas?: number; template?: { spec?: { containers?: { image?: string }[] } } };
  readonly status?: {
    observedGeneration?: number;
    availableReplicas?: number;
    numberReady?: number;
    desiredNumberScheduled?: number;
  };
}

/** A Deployment of the agent stack (in `proxmox-system`), or undefined when there is none. */
export function stackDeployment(host: Host, name: string): Promise<WorkloadStatus | undefined> {
  return getJson<WorkloadStatus>(host, ['deployment', name, '-n', OPERATOR_NAMESPACE]);
}

/** Whether the agent stack's namespace holds the Secret. */
export async function hasStackSecret(host: Host, name: string): Promise<boolean> {
  return (await getJson(host, ['secret', name, '-n', OPERATOR_NAMESPACE])) !== undefined;
}

/** Ready count of a Deployment (available replicas) or DaemonSet (ready pods); 0 when absent. */
export function readyCount(workload: WorkloadStatus | undefined): number {
  return workload?.status?.availableReplicas ?? workload?.status?.numberReady ?? 0;
}

export interface NodeList {
  readonly items: readonly {
    metadata: { name: string };
    status?: {
      conditions?: readonly { type: string; status: string }[];
      nodeInfo?: { kubeletVersion?: string };
    };
  }[];
}

export function readyNodes(nodes: NodeList | undefined): string[] {
  return (nodes?.items ?? [])
    .filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true)
    .map((n) => n.metadata.name);
}
