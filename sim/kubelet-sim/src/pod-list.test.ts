import { describe, expect, it } from 'vitest';
import { renderPodList } from './pod-list.js';
import { createSimulatedNode } from './simulated-node.js';

const T0 = Date.parse('2026-08-01T10:00:00Z');

interface ContainerStatus {
  name: string;
  state: {
    running?: { startedAt: string };
    waiting?: { reason: string; message?: string };
    terminated?: { exitCode: number; reason: string; containerID: string };
  };
  lastState: { terminated?: { exitCode: number; reason: string; containerID: string; finishedAt: string } };
  ready: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
  started: boolean;
}
interface Pod {
  metadata: {
    name: string;
    namespace: string;
    uid: string;
    creationTimestamp: string;
    labels: Record<string, string>;
    annotations: Record<string, string>;
    ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string; controller: boolean }[];
  };
  spec: {
    nodeName: string;
    containers: {
      name: string;
      image: string;
      resources: { limits?: Record<string, string>; requests?: Record<string, string> };
    }[];
    initContainers?: { name: string; restartPolicy?: string }[];
  };
  status: {
    phase: string;
    reason?: string;
    startTime: string;
    conditions: { type: string; status: string; reason?: string }[];
    containerStatuses: ContainerStatus[];
    initContainerStatuses?: ContainerStatus[];
    qosClass: string;
  };
}

function setup() {
  let t = T0;
  const node = createSimulatedNode({ nodeName: 'worker-7', now: () => t });
  return {
    node,
    read: () => JSON.parse(renderPodList(node)) as { kind: string; apiVersion: string; items: Pod[] },
    advance: (ms: number) => {
      t += ms;
    },
  };
}

describe('renderPodList', () => {
  it('answers a v1 PodList of the node’s pods with metadata, spec and status', () => {
    const { node, read } = setup();
    const list = read();
    expect(list.kind).toBe('PodList');
    expect(list.apiVersion).toBe('v1');
    expect(list.items.map((p) => p.metadata.uid)).toEqual(node.pods().map((p) => p.uid));
    for (const pod of list.items) {
      expect(pod.spec.nodeName).toBe('worker-7');
      expect(pod.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(pod.status.conditions.map((c) => c.type)).toEqual([
        'PodReadyToStartContainers',
        'Initialized',
        'Ready',
        'ContainersReady',
        'PodScheduled',
      ]);
      expect(pod.status.containerStatuses.map((c) => c.name)).toEqual(pod.spec.containers.map((c) => c.name));
      for (const owner of pod.metadata.ownerReferences ?? []) expect(owner.controller).toBe(true);
      for (const c of pod.status.containerStatuses) {
        if (c.containerID !== undefined) expect(c.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
      }
    }
  });

  it('carries what resolves a workload: owners, template hashes, static pod annotations', () => {
    const { read } = setup();
    const items = read().items;
    const deployment = items.find((p) => 'pod-template-hash' in p.metadata.labels);
    const hash = deployment?.metadata.labels['pod-template-hash'] ?? '';
    expect(hash).toMatch(/^[4-9bcdf]{1,10}$/);
    expect(deployment?.metadata.ownerReferences?.[0]).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
    });
    expect(deployment?.metadata.ownerReferences?.[0]?.name.endsWith(`-${hash}`)).toBe(true);
    expect(items.some((p) => p.metadata.labels['pod-template-hash']?.length === 5)).toBe(true);

    const rollout = items.find((p) => 'rollouts-pod-template-hash' in p.metadata.labels);
    expect(rollout?.metadata.labels).not.toHaveProperty('pod-template-hash');
    expect(rollout?.metadata.ownerReferences?.[0]?.kind).toBe('ReplicaSet');

    const statics = items.filter((p) => p.metadata.annotations['kubernetes.io/config.source'] === 'file');
    expect(statics.length).toBeGreaterThan(0);
    for (const p of statics) {
      expect(p.metadata.name.endsWith('-worker-7')).toBe(true);
      expect(p.metadata.annotations['kubernetes.io/config.hash']).toBe(p.metadata.uid);
      expect(p.metadata.annotations['kubernetes.io/config.mirror']).toBe(p.metadata.uid);
      expect(p.metadata.ownerReferences).toEqual([
        {
          apiVersion: 'v1',
          kind: 'Node',
          name: 'worker-7',
          uid: expect.any(String) as string,
          controller: true,
        },
      ]);
    }
    const cron = items.find((p) => /-\d{8}$/.test(p.metadata.ownerReferences?.[0]?.name ?? ''));
    expect(cron?.metadata.ownerReferences?.[0]?.kind).toBe('Job');
    expect(
      items.some(
        (p) =>
          p.metadata.ownerReferences === undefined &&
          p.metadata.annotations['kubernetes.io/config.source'] === 'api',
      ),
    ).toBe(true);
  });

  it('shows restarts, OOM kills, crash loops, init crash loops, pending, finished and failed pods', () => {
    const { read } = setup();
    const items = read().items;
    const statuses = items.flatMap((p) => p.status.containerStatuses.map((c) => ({ pod: p, c })));
    const oom = statuses.find(({ c }) => c.lastState.terminated?.reason === 'OOMKilled');
    expect(oom?.c).toMatchObject({
      ready: true,
      started: true,
      lastState: { terminated: { exitCode: 137 } },
    });
    expect(oom?.c.restartCount).toBeGreaterThan(0);
    expect(oom?.c.lastState.terminated?.containerID).not.toBe(oom?.c.containerID);

    const loop = statuses.find(({ c }) => c.state.waiting?.reason === 'CrashLoopBackOff');
    expect(loop?.c).toMatchObject({
      ready: false,
      started: false,
      lastState: { terminated: { exitCode: 1, reason: 'Error' } },
    });
    expect(loop?.c.state.waiting?.message).toContain(`pod=${loop?.pod.metadata.name ?? ''}_`);
    expect(loop?.pod.status.phase).toBe('Running');

    const init = items.find((p) =>
      p.status.initContainerStatuses?.some((c) => c.state.waiting?.reason === 'CrashLoopBackOff'),
    );
    expect(init?.status.phase).toBe('Pending');
    expect(init?.status.containerStatuses.every((c) => c.state.waiting?.reason === 'PodInitializing')).toBe(
      true,
    );
    expect(init?.status.conditions.find((c) => c.type === 'Initialized')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotInitialized',
    });

    const pending = items.find(
      (p) =>
        p.status.phase === 'Pending' &&
        p.status.containerStatuses.some((c) => c.state.waiting?.reason === 'ContainerCreating'),
    );
    expect(pending?.status.containerStatuses[0]).toMatchObject({
      imageID: '',
      started: false,
      restartCount: 0,
    });
    const succeeded = items.filter((p) => p.status.phase === 'Succeeded');
    expect(succeeded.length).toBeGreaterThan(0);
    for (const p of succeeded)
      expect(p.status.containerStatuses.every((c) => c.state.terminated?.reason === 'Completed')).toBe(true);
    const failed = items.filter((p) => p.status.phase === 'Failed');
    expect(failed.map((p) => p.status.reason)).toContain('Evicted');
    expect(failed.some((p) => p.status.containerStatuses[0]?.state.terminated?.exitCode === 1)).toBe(true);

    const sidecar = items.find((p) => p.spec.initContainers?.some((c) => c.restartPolicy === 'Always'));
    expect(sidecar?.status.initContainerStatuses?.find((c) => c.started)).toBeDefined();
  });

  it('shows what tests do to the node: restarts, recreation and waiting containers', () => {
    const { node, read, advance } = setup();
    const pod = node
      .pods()
      .find(
        (p) =>
          p.phase === 'Running' && p.containers.every((c) => c.state === 'running' && c.restartCount === 0),
      );
    const name = pod?.containers[0]?.name ?? '';
    if (!pod) throw new Error('no running pod');
    advance(61_000);
    node.restartContainer(pod.uid, name, { reason: 'OOMKilled' });
    let status = read().items.find((p) => p.metadata.uid === pod.uid)?.status.containerStatuses[0];
    expect(status).toMatchObject({
      restartCount: 1,
      state: { running: { startedAt: '2026-08-01T10:01:01Z' } },
      lastState: { terminated: { reason: 'OOMKilled', exitCode: 137, finishedAt: '2026-08-01T10:01:01Z' } },
    });
    node.setWaiting(pod.uid, name, 'CrashLoopBackOff');
    status = read().items.find((p) => p.metadata.uid === pod.uid)?.status.containerStatuses[0];
    expect(status).toMatchObject({ ready: false, state: { waiting: { reason: 'CrashLoopBackOff' } } });
    const again = node.recreatePod(pod.uid);
    const items = read().items;
    expect(items.some((p) => p.metadata.uid === pod.uid)).toBe(false);
    const recreated = items.find((p) => p.metadata.uid === again.uid);
    expect(recreated?.metadata.name).toBe(pod.name);
    expect(recreated?.status.containerStatuses[0]).toMatchObject({
      restartCount: 0,
      lastState: {},
      ready: true,
    });
  });

  it('defaults requests to limits in the spec, as the API server does, and classes QoS from them', () => {
    const { node, read } = setup();
    const added = node.addPod({
      name: 'guaranteed',
      containers: [{ name: 'app', resources: { limits: { cpu: '1', memory: '1Gi' } } }],
    });
    const pod = read().items.find((p) => p.metadata.uid === added.uid);
    expect(pod?.spec.containers[0]?.resources).toEqual({
      limits: { cpu: '1', memory: '1Gi' },
      requests: { cpu: '1', memory: '1Gi' },
    });
    expect(pod?.status.qosClass).toBe('Guaranteed');
    expect(new Set(read().items.map((p) => p.status.qosClass))).toEqual(
      new Set(['Guaranteed', 'Burstable', 'BestEffort']),
    );
  });
});
