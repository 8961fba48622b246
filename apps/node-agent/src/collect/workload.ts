import type { Pod } from './kubelet-documents.js';

/**
 * The `workload_kind` label values:
 * - `Deployment`: the pod's ReplicaSet belongs to a Deployment (the pod's `pod-template-hash` is the suffix);
 * - `Rollout`: the ReplicaSet belongs to an Argo Rollout (`rollouts-pod-template-hash` is the suffix);
 * - `ReplicaSet`: a ReplicaSet on its own;
 * - `StatefulSet`, `DaemonSet`, `Job`: the pod's direct owner (a CronJob's pods stay with their Job);
 * - `StaticPod`: a pod the kubelet runs from a manifest file or URL, named after the pod;
 * - `Pod`: a pod without an owner the agent models (a bare pod, or one owned by another kind of controller),
 *   named after the pod.
 */
export type WorkloadKind =
  'Deployment' | 'Rollout' | 'ReplicaSet' | 'StatefulSet' | 'DaemonSet' | 'Job' | 'StaticPod' | 'Pod';

export interface Workload {
  kind: WorkloadKind;
  name: string;
}

const CONFIG_SOURCE_ANNOTATION = 'kubernetes.io/config.source';
const CONFIG_MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
/** `api` is the other value: a pod from the API server. */
const STATIC_CONFIG_SOURCES: ReadonlySet<string> = new Set(['file', 'http']);
const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';
const ROLLOUT_TEMPLATE_HASH_LABEL = 'rollouts-pod-template-hash';

export function resolveWorkload(pod: Pick<Pod, 'metadata'>): Workload {
  const { name, labels, annotations, ownerReferences } = pod.metadata;
  // The owner that manages the pod; a pod whose owners all lack the flag is attributed to the first.
  const owner = ownerReferences.find((reference) => reference.controller === true) ?? ownerReferences[0];
  const source = annotations[CONFIG_SOURCE_ANNOTATION];
  const isStatic =
    (source !== undefined && STATIC_CONFIG_SOURCES.has(source)) ||
    annotations[CONFIG_MIRROR_ANNOTATION] !== undefined ||
    owner?.kind === 'Node';
  if (isStatic) return { kind: 'StaticPod', name };
  switch (owner?.kind) {
    case 'ReplicaSet':
      return replicaSetWorkload(owner.name, labels);
    case 'StatefulSet':
    case 'DaemonSet':
    case 'Job':
      return { kind: owner.kind, name: owner.name };
    default:
      return { kind: 'Pod', name };
  }
}

/**
 * A ReplicaSet created by a Deployment or an Argo Rollout is named `<owner>-<hash>`, and its pods carry the
 * hash in a label; hashes can be as short as one character, so only the label says where the owner's name ends.
 */
function replicaSetWorkload(replicaSetName: string, labels: Record<string, string>): Workload {
  const deployment = ownerName(replicaSetName, labels[POD_TEMPLATE_HASH_LABEL]);
  if (deployment !== undefined) return { kind: 'Deployment', name: deployment };
  const rollout = ownerName(replicaSetName, labels[ROLLOUT_TEMPLATE_HASH_LABEL]);
  if (rollout !== undefined) return { kind: 'Rollout', name: rollout };
  return { kind: 'ReplicaSet', name: replicaSetName };
}

function ownerName(replicaSetName: string, hash: string | undefined): string | undefined {
  if (hash === undefined || hash === '') return undefined;
  const suffix = `-${hash}`;
  if (replicaSetName.length <= suffix.length || !replicaSetName.endsWith(suffix)) return undefined;
  return replicaSetName.slice(0, -suffix.length);
}
