import { metav1Time, rfc3339Nano } from './metav1-time.js';
import {
  qosClass,
  runtimeId,
  type ContainerModel,
  type PodModel,
  type Termination,
  type VolumeModel,
} from './pod-model.js';
import { fnv32a } from './seeded-random.js';
import type { SimulatedNode } from './simulated-node.js';

const SERVICE_ACCOUNT_MOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

/** Returns what `GET /pods` answers: the kubelet's pods as a v1 PodList, in the API's JSON. */
export function renderPodList(node: SimulatedNode): string {
  const items = node.podModels().map((pod) => podJson(node, pod));
  return `${JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items })}\n`;
}

/** Go's encoding/json writes a map's keys sorted. */
function goMap<T>(map: Readonly<Partial<Record<string, T>>>): Partial<Record<string, T>> {
  return Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function podJson(node: SimulatedNode, pod: PodModel): Record<string, unknown> {
  return {
    metadata: {
      name: pod.name,
      ...(pod.generateName ? { generateName: pod.generateName } : {}),
      namespace: pod.namespace,
      uid: pod.uid,
      resourceVersion: String(1_000_000 + (fnv32a(pod.uid) % 90_000_000)),
      creationTimestamp: metav1Time(pod.createdAt),
      labels: goMap(pod.labels),
      annotations: goMap({
        ...pod.annotations,
        'kubernetes.io/config.seen': rfc3339Nano(pod.createdAt + 180),
        ...(pod.annotations['kubernetes.io/config.source'] ? {} : { 'kubernetes.io/config.source': 'api' }),
      }),
      ...(pod.owner
        ? {
            ownerReferences: [
              {
                ...pod.owner,
                controller: true,
                ...(pod.owner.kind === 'Node' ? {} : { blockOwnerDeletion: true }),
              },
            ],
          }
        : {}),
    },
    spec: podSpec(node, pod),
    status: podStatus(node, pod),
  };
}

function podSpec(node: SimulatedNode, pod: PodModel): Record<string, unknown> {
  const token = pod.volumes.find((v) => v.source === 'projected');
  const mounts = token ? [{ name: token.name, readOnly: true, mountPath: SERVICE_ACCOUNT_MOUNT }] : [];
  return {
    volumes: pod.volumes.map(volumeSpec),
    ...(pod.initContainers.length
      ? { initContainers: pod.initContainers.map((c) => containerSpec(c, mounts)) }
      : {}),
    containers: pod.containers.map((c) => containerSpec(c, mounts)),
    restartPolicy: pod.restartPolicy,
    terminationGracePeriodSeconds: 30,
    dnsPolicy: pod.hostNetwork ? 'ClusterFirstWithHostNet' : 'ClusterFirst',
    serviceAccountName: pod.serviceAccount,
    serviceAccount: pod.serviceAccount,
    nodeName: node.nodeName,
    ...(pod.hostNetwork ? { hostNetwork: true } : {}),
    securityContext: {},
    schedulerName: 'default-scheduler',
    tolerations: [
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
    ],
    ...(pod.priorityClassName ? { priorityClassName: pod.priorityClassName } : {}),
    priority: pod.priority,
    enableServiceLinks: true,
    preemptionPolicy: 'PreemptLowerPriority',
  };
}

function volumeSpec(v: VolumeModel): Record<string, unknown> {
  switch (v.source) {
    case 'projected':
      return {
        name: v.name,
        projected: {
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            {
              downwardAPI: {
                items: [
                  { path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } },
                ],
              },
            },
          ],
          defaultMode: 420,
        },
      };
    case 'configMap':
      return { name: v.name, configMap: { name: v.name, defaultMode: 420 } };
    case 'secret':
      return { name: v.name, secret: { secretName: v.name, defaultMode: 420 } };
    case 'emptyDir':
      return { name: v.name, emptyDir: {} };
    case 'persistentVolumeClaim':
      return { name: v.name, persistentVolumeClaim: { claimName: v.claimName ?? v.name } };
    case 'hostPath':
      return { name: v.name, hostPath: { path: v.hostPath ?? '/', type: '' } };
  }
}

function containerSpec(c: ContainerModel, mounts: Record<string, unknown>[]): Record<string, unknown> {
  const { limits, requests } = c.resources;
  // The API server defaults missing requests to the limits.
  const effectiveRequests = limits || requests ? { ...limits, ...requests } : undefined;
  return {
    name: c.name,
    image: c.image,
    resources: {
      ...(limits ? { limits: goMap({ ...limits }) } : {}),
      ...(effectiveRequests ? { requests: goMap(effectiveRequests) } : {}),
    },
    ...(mounts.length ? { volumeMounts: mounts } : {}),
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: 'IfNotPresent',
    ...(c.sidecar ? { restartPolicy: 'Always' } : {}),
  };
}

function terminatedJson(t: Termination): Record<string, unknown> {
  return {
    exitCode: t.exitCode,
    reason: t.reason,
    ...(t.message ? { message: t.message } : {}),
    startedAt: metav1Time(t.startedAt),
    finishedAt: metav1Time(t.finishedAt),
    containerID: runtimeId(t.containerId),
  };
}

function containerStatus(pod: PodModel, c: ContainerModel): Record<string, unknown> {
  const s = c.status;
  const state =
    s.state === 'running'
      ? { running: { startedAt: metav1Time(s.startedAt) } }
      : s.state === 'waiting'
        ? { waiting: { reason: s.reason, ...(s.message ? { message: s.message } : {}) } }
        : { terminated: terminatedJson(s.termination) };
  const id =
    s.state === 'running'
      ? s.containerId
      : s.state === 'terminated'
        ? s.termination.containerId
        : c.lastTermination?.containerId;
  const everRan = id !== undefined;
  const ready =
    (s.state === 'running' && pod.phase === 'Running') ||
    (c.init && !c.sidecar && s.state === 'terminated' && s.termination.exitCode === 0);
  return {
    name: c.name,
    state,
    lastState: c.lastTermination ? { terminated: terminatedJson(c.lastTermination) } : {},
    ready,
    restartCount: c.restartCount,
    image: c.image,
    imageID: everRan ? c.imageId : '',
    ...(id ? { containerID: runtimeId(id) } : {}),
    started: s.state === 'running',
  };
}

interface Condition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime: number;
  reason?: string;
  message?: string;
}

function conditions(pod: PodModel): Condition[] {
  const finished = pod.phase === 'Succeeded' || pod.phase === 'Failed';
  const waitingInit = pod.initContainers.filter(
    (c) => !(c.sidecar ? c.status.state === 'running' : c.status.state === 'terminated'),
  );
  const unready = [...pod.initContainers.filter((c) => c.sidecar), ...pod.containers].filter(
    (c) => c.status.state !== 'running',
  );
  const lastStart = Math.max(
    pod.startedAt,
    ...[...pod.initContainers, ...pod.containers].map((c) =>
      c.status.state === 'running'
        ? c.status.startedAt
        : c.status.state === 'terminated'
          ? c.status.termination.finishedAt
          : 0,
    ),
  );
  const finishedReason = pod.phase === 'Succeeded' ? 'PodCompleted' : 'PodFailed';
  const readyCondition = (type: string): Condition =>
    finished
      ? { type, status: 'False', lastTransitionTime: lastStart, reason: finishedReason }
      : unready.length
        ? {
            type,
            status: 'False',
            lastTransitionTime: lastStart,
            reason: 'ContainersNotReady',
            message: `containers with unready status: [${unready.map((c) => c.name).join(' ')}]`,
          }
        : { type, status: 'True', lastTransitionTime: lastStart };
  return [
    {
      type: 'PodReadyToStartContainers',
      status: pod.sandbox ? 'True' : 'False',
      lastTransitionTime: pod.sandbox?.startedAt ?? lastStart,
    },
    waitingInit.length && !finished
      ? {
          type: 'Initialized',
          status: 'False',
          lastTransitionTime: pod.createdAt,
          reason: 'ContainersNotInitialized',
          message: `containers with incomplete status: [${waitingInit.map((c) => c.name).join(' ')}]`,
        }
      : { type: 'Initialized', status: 'True', lastTransitionTime: pod.startedAt },
    readyCondition('Ready'),
    readyCondition('ContainersReady'),
    { type: 'PodScheduled', status: 'True', lastTransitionTime: pod.createdAt },
  ];
}

function podStatus(node: SimulatedNode, pod: PodModel): Record<string, unknown> {
  return {
    phase: pod.phase,
    conditions: conditions(pod).map((c) => ({
      type: c.type,
      status: c.status,
      lastProbeTime: null,
      lastTransitionTime: metav1Time(c.lastTransitionTime),
      ...(c.reason ? { reason: c.reason } : {}),
      ...(c.message ? { message: c.message } : {}),
    })),
    ...(pod.reason ? { reason: pod.reason } : {}),
    ...(pod.message ? { message: pod.message } : {}),
    hostIP: node.hostIp,
    hostIPs: [{ ip: node.hostIp }],
    podIP: pod.podIp,
    podIPs: [{ ip: pod.podIp }],
    startTime: metav1Time(pod.startedAt),
    ...(pod.initContainers.length
      ? { initContainerStatuses: pod.initContainers.map((c) => containerStatus(pod, c)) }
      : {}),
    containerStatuses: pod.containers.map((c) => containerStatus(pod, c)),
    qosClass: qosClass(pod),
  };
}
