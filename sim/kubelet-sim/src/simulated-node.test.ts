import { describe, expect, it } from 'vitest';
import { createSimulatedNode, type SimulatedPod } from './simulated-node.js';

const T0 = Date.parse('2026-08-01T10:00:00Z');

function clock(start = T0): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
  };
}

function containers(pods: SimulatedPod[]) {
  return pods.flatMap((p) => [...p.containers, ...p.initContainers].map((c) => ({ pod: p, c })));
}

describe('the generated node', () => {
  it('has 110 pods by default, of every kind of workload, in every state an agent must handle', () => {
    const node = createSimulatedNode({ now: clock().now });
    const pods = node.pods();
    expect(pods).toHaveLength(110);
    expect(new Set(pods.map((p) => p.uid)).size).toBe(110);
    expect(new Set(pods.map((p) => p.workload.kind))).toEqual(
      new Set(['Deployment', 'Rollout', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'StaticPod', 'Pod']),
    );
    expect(new Set(pods.map((p) => p.phase))).toEqual(new Set(['Running', 'Pending', 'Succeeded', 'Failed']));
    const all = containers(pods);
    expect(all.some(({ c }) => c.lastTerminationReason === 'OOMKilled' && c.state === 'running')).toBe(true);
    expect(all.some(({ c }) => !c.init && c.reason === 'CrashLoopBackOff')).toBe(true);
    expect(
      all.some(({ pod, c }) => c.init && c.reason === 'CrashLoopBackOff' && pod.phase === 'Pending'),
    ).toBe(true);
    expect(all.some(({ c }) => c.reason === 'ContainerCreating')).toBe(true);
    expect(all.some(({ c }) => c.restartCount > 0)).toBe(true);
    expect(all.some(({ c }) => c.cpuLimited)).toBe(true);
    expect(all.some(({ c }) => !c.cpuLimited)).toBe(true);
    expect(pods.some((p) => p.initContainers.length > 0 && p.phase === 'Running')).toBe(true);
  });

  it('names pods after their workload as the controllers do', () => {
    const pods = createSimulatedNode({ nodeName: 'node-a', now: clock().now }).pods();
    const byKind = (kind: string) => pods.filter((p) => p.workload.kind === kind);
    for (const p of byKind('Deployment'))
      expect(p.name).toMatch(
        new RegExp(`^${p.workload.name}-[4-9bcdf]{1,10}-[bcdfghjklmnpqrstvwxz2456789]{5}$`),
      );
    for (const p of byKind('StatefulSet')) expect(p.name).toMatch(new RegExp(`^${p.workload.name}-\\d+$`));
    for (const p of byKind('CronJob'))
      expect(p.name).toMatch(new RegExp(`^${p.workload.name}-\\d{8}-[a-z0-9]{5}$`));
    for (const p of byKind('StaticPod')) expect(p.name).toBe(`${p.workload.name}-node-a`);
    expect(byKind('StaticPod').every((p) => /^[0-9a-f]{32}$/.test(p.uid))).toBe(true);
  });

  it('keeps the cases that matter first when asked for few pods', () => {
    const pods = createSimulatedNode({ pods: 16, now: clock().now }).pods();
    expect(pods).toHaveLength(16);
    const all = containers(pods);
    expect(all.some(({ c }) => c.lastTerminationReason === 'OOMKilled')).toBe(true);
    expect(all.some(({ c }) => c.reason === 'CrashLoopBackOff' && c.init)).toBe(true);
    expect(new Set(pods.map((p) => p.phase))).toEqual(new Set(['Running', 'Pending', 'Succeeded', 'Failed']));
    expect(createSimulatedNode({ pods: 0, now: clock().now }).pods()).toEqual([]);
    expect(createSimulatedNode({ pods: 300, now: clock().now }).pods()).toHaveLength(300);
  });

  it('is the same node for the same seed and name, and another for another seed or name', () => {
    const a = createSimulatedNode({ seed: 7, now: clock().now });
    const b = createSimulatedNode({ seed: 7, now: clock().now });
    expect(b.pods()).toEqual(a.pods());
    expect([b.machineId, b.systemUuid, b.bootId]).toEqual([a.machineId, a.systemUuid, a.bootId]);
    const c = createSimulatedNode({ seed: 8, now: clock().now });
    const d = createSimulatedNode({ seed: 7, nodeName: 'other', now: clock().now });
    expect(c.pods()[0]?.uid).not.toBe(a.pods()[0]?.uid);
    expect(d.machineId).not.toBe(a.machineId);
    expect(a.machineId).toMatch(/^[0-9a-f]{32}$/);
    expect(a.bootId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('control methods', () => {
  const running = (pods: SimulatedPod[]) =>
    pods.find(
      (p) =>
        p.phase === 'Running' && p.containers.every((c) => c.state === 'running' && c.restartCount === 0),
    );

  it('restartContainer counts a restart, records why and starts a new container', () => {
    const node = createSimulatedNode({ pods: 30, now: clock().now });
    const pod = running(node.pods());
    const before = pod?.containers[0];
    if (!pod || !before) throw new Error('no running pod');
    node.restartContainer(pod.uid, before.name, { reason: 'OOMKilled' });
    const after = node.pods().find((p) => p.uid === pod.uid)?.containers[0];
    expect(after).toMatchObject({ restartCount: 1, lastTerminationReason: 'OOMKilled', state: 'running' });
    expect(after?.containerId).not.toBe(before.containerId);
    node.restartContainer(pod.uid, before.name);
    expect(node.pods().find((p) => p.uid === pod.uid)?.containers[0]).toMatchObject({
      restartCount: 2,
      lastTerminationReason: 'Error',
    });
  });

  it('recreatePod keeps the name and namespace with a new uid and no restarts; deletePod removes it', () => {
    const node = createSimulatedNode({ now: clock().now });
    const pod = node.pods().find((p) => p.containers.some((c) => c.restartCount > 0));
    if (!pod) throw new Error('no restarted pod');
    const again = node.recreatePod(pod.uid);
    expect(again).toMatchObject({ name: pod.name, namespace: pod.namespace, phase: 'Running' });
    expect(again.uid).not.toBe(pod.uid);
    expect(again.containers.every((c) => c.restartCount === 0 && c.state === 'running')).toBe(true);
    expect(node.pods().some((p) => p.uid === pod.uid)).toBe(false);
    node.deletePod(again.uid);
    expect(node.pods().some((p) => p.name === pod.name && p.namespace === pod.namespace)).toBe(false);
    expect(() => {
      node.deletePod(again.uid);
    }).toThrow(/no pod with uid/);
  });

  it('setWaiting on an init container holds the pod in Init, and clearing it lets the pod run', () => {
    const node = createSimulatedNode({ pods: 40, now: clock().now });
    const pod = node
      .pods()
      .find((p) => p.phase === 'Running' && p.initContainers.some((c) => c.state === 'terminated'));
    const init = pod?.initContainers.find((c) => c.state === 'terminated');
    if (!pod || !init) throw new Error('no pod with init containers');
    node.setWaiting(pod.uid, init.name, 'CrashLoopBackOff');
    let now = node.pods().find((p) => p.uid === pod.uid);
    expect(now?.phase).toBe('Pending');
    expect(now?.initContainers.find((c) => c.name === init.name)).toMatchObject({
      state: 'waiting',
      reason: 'CrashLoopBackOff',
    });
    expect(now?.containers.every((c) => c.reason === 'PodInitializing')).toBe(true);
    node.setWaiting(pod.uid, init.name, undefined);
    now = node.pods().find((p) => p.uid === pod.uid);
    expect(now?.phase).toBe('Running');
    expect(now?.containers.every((c) => c.state === 'running')).toBe(true);
    expect(now?.initContainers.find((c) => c.name === init.name)).toMatchObject({
      state: 'terminated',
      restartCount: 1,
    });
  });

  it('setWaiting on an app container stops it; setPhase ends or revives the pod', () => {
    const node = createSimulatedNode({ pods: 30, now: clock().now });
    const pod = running(node.pods());
    const c = pod?.containers[0];
    if (!pod || !c) throw new Error('no running pod');
    node.setWaiting(pod.uid, c.name, 'ImagePullBackOff');
    expect(node.pods().find((p) => p.uid === pod.uid)?.containers[0]).toMatchObject({
      state: 'waiting',
      reason: 'ImagePullBackOff',
      lastTerminationReason: 'Error',
    });
    node.setPhase(pod.uid, 'Succeeded');
    const done = node.pods().find((p) => p.uid === pod.uid);
    expect(done?.phase).toBe('Succeeded');
    expect(() => {
      node.restartContainer(pod.uid, c.name);
    }).toThrow(/Succeeded/);
    node.setPhase(pod.uid, 'Running');
    expect(node.pods().find((p) => p.uid === pod.uid)?.containers[0]).toMatchObject({
      state: 'running',
      restartCount: 1,
    });
  });

  it('addPod admits a pod and resolves its workload the way an agent should', () => {
    const node = createSimulatedNode({ pods: 0, now: clock().now });
    const rs = node.addPod({
      name: 'web-5d9c8b7f4-abcde',
      namespace: 'shop',
      labels: { 'pod-template-hash': '5d9c8b7f4' },
      owner: { kind: 'ReplicaSet', name: 'web-5d9c8b7f4' },
      containers: [{ name: 'web', resources: { limits: { cpu: '500m', memory: '256Mi' } } }],
    });
    expect(rs).toMatchObject({
      namespace: 'shop',
      phase: 'Running',
      workload: { kind: 'Deployment', name: 'web' },
    });
    expect(rs.containers[0]).toMatchObject({ state: 'running', cpuLimited: true, restartCount: 0 });
    const rollout = node.addPod({
      name: 'front-7c6-x',
      labels: { 'rollouts-pod-template-hash': '7c6' },
      owner: { kind: 'ReplicaSet', name: 'front-7c6' },
      containers: [{ name: 'front' }],
    });
    expect(rollout.workload).toEqual({ kind: 'Rollout', name: 'front' });
    const cron = node.addPod({
      name: 'backup-29123456-q2w4e',
      owner: { kind: 'Job', name: 'backup-29123456' },
      containers: [{ name: 'b' }],
    });
    expect(cron.workload).toEqual({ kind: 'CronJob', name: 'backup' });
    const bare = node.addPod({ name: 'debug', phase: 'Pending', containers: [{ name: 'sh' }] });
    expect(bare).toMatchObject({ workload: { kind: 'Pod', name: 'debug' }, phase: 'Pending' });
    expect(node.pods()).toHaveLength(4);
    expect(() => node.addPod({ name: 'empty', containers: [] })).toThrow(/at least one container/);
    expect(() => node.addPod({ name: 'again', uid: rs.uid, containers: [{ name: 'x' }] })).toThrow(
      /already exists/,
    );
  });
});
