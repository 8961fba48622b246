import { addLeafSample } from './cgroup-sample.js';
import { podTemplateHash, randomSuffix } from './kube-names.js';
import type { PodFactory, PodInput } from './pod-factory.js';
import { type ContainerModel, type PodModel, type TerminationReason } from './pod-model.js';
import { fnv32a, type SeededRandom } from './seeded-random.js';
import { c, CATALOGUE, ESSENTIAL, res, type Scenario, type WorkloadTemplate } from './workload-catalogue.js';

const GiB = 1024 * 1024 * 1024;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const FILLER_SERVICES = [
  'orders',
  'billing',
  'profile',
  'catalog',
  'shipping',
  'reviews',
  'wishlist',
  'mailer',
];

export interface MixContext {
  random: SeededRandom;
  factory: PodFactory;
  nodeName: string;
  nodeUid: string;
  /** The node's clock when the node model was made, and when it booted. */
  now: number;
  bootTime: number;
  nodeFsCapacityBytes: number;
}

interface Candidate {
  key: string;
  build: () => PodModel;
}

/** `count` pods in the mix of a busy node; the cases in ESSENTIAL come first when `count` is small. */
export function generatePodMix(count: number, ctx: MixContext): PodModel[] {
  const candidates = CATALOGUE.flatMap((template) => candidatesOf(template, ctx));
  const byKey = new Map(candidates.map((cand) => [cand.key, cand]));
  const ordered = [
    ...ESSENTIAL.flatMap((key) => byKey.get(key) ?? []),
    ...candidates.filter((cand) => !ESSENTIAL.includes(cand.key)),
  ];
  for (let k = 0; ordered.length < count; k++) {
    const name = `${FILLER_SERVICES[k % FILLER_SERVICES.length] ?? 'svc'}-${Math.floor(k / FILLER_SERVICES.length) + 1}`;
    ordered.push(
      ...candidatesOf(
        {
          kind: 'Deployment',
          namespace: `team-${(k % 6) + 1}`,
          name,
          replicas: 3,
          containers: [
            c(name, `ghcr.io/acme-teams/${name}:1.0.${k}`, res('100m', '128Mi', '500m', '256Mi'), 0.03, 100),
          ],
        },
        ctx,
      ),
    );
  }
  const chosen = new Set(ordered.slice(0, count).map((cand) => cand.key));
  // Built in catalogue order (system pods first, as /pods lists them after a reboot), whatever was chosen.
  const all = [...candidates, ...ordered.filter((cand) => !byKey.has(cand.key))];
  return all.filter((cand) => chosen.has(cand.key)).map((cand) => cand.build());
}

function candidatesOf(template: WorkloadTemplate, ctx: MixContext): Candidate[] {
  const { random } = ctx;
  const replicas = template.replicas ?? 1;
  const hash = podTemplateHash(
    template.templateFnv ?? fnv32a(`${template.namespace}/${template.name}/${random.uint32()}`),
  );
  const ownerUid = random.uuid();
  const rolledOutAt = createdAround(template, ctx);
  return Array.from({ length: replicas }, (_, i) => {
    const key = `${template.namespace}/${template.name}#${i}`;
    return {
      key,
      build: () => {
        const pod = ctx.factory.runningPod(podInput(template, i, hash, ownerUid, rolledOutAt, ctx));
        const scenario = template.scenarios?.[i];
        if (template.kind === 'CronJob') finishCronRun(pod, template, i, ctx);
        if (scenario) applyScenario(pod, scenario, ctx);
        return pod;
      },
    };
  });
}

function createdAround(template: WorkloadTemplate, ctx: MixContext): number {
  const { random, now, bootTime } = ctx;
  if (template.kind === 'DaemonSet' || template.kind === 'Static')
    return bootTime + random.int(40_000, 240_000);
  const oldest = Math.max(bootTime + 5 * MINUTE, now - 14 * DAY);
  return random.between(oldest, now - 20 * MINUTE);
}

function podInput(
  template: WorkloadTemplate,
  i: number,
  hash: string,
  ownerUid: string,
  rolledOutAt: number,
  ctx: MixContext,
): PodInput {
  const { random, nodeName } = ctx;
  const { namespace, name } = template;
  const base = {
    namespace,
    uid: random.uuid(),
    hostNetwork: template.hostNetwork ?? false,
    restartPolicy: template.restartPolicy ?? 'Always',
    serviceAccount: template.serviceAccount ?? 'default',
    ...(template.priorityClassName ? { priorityClassName: template.priorityClassName } : {}),
    containers: template.containers,
    initContainers: template.initContainers ?? [],
    createdAt: rolledOutAt + random.int(0, 90_000),
    annotations: {} as Record<string, string>,
    volumes: volumesOf(template, i, ctx),
  };
  const app = { 'app.kubernetes.io/name': name };
  switch (template.kind) {
    case 'Deployment':
    case 'Rollout': {
      const rs = `${name}-${hash}`;
      const hashLabel = template.kind === 'Deployment' ? 'pod-template-hash' : 'rollouts-pod-template-hash';
      return {
        ...base,
        name: `${rs}-${randomSuffix(random)}`,
        generateName: `${rs}-`,
        labels: { ...app, [hashLabel]: hash },
        owner: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs, uid: ownerUid },
        workload: { kind: template.kind, name },
      };
    }
    case 'StatefulSet':
      return {
        ...base,
        name: `${name}-${i}`,
        generateName: `${name}-`,
        labels: {
          ...app,
          'apps.kubernetes.io/pod-index': String(i),
          'controller-revision-hash': `${name}-${hash}`,
          'statefulset.kubernetes.io/pod-name': `${name}-${i}`,
        },
        owner: { apiVersion: 'apps/v1', kind: 'StatefulSet', name, uid: ownerUid },
        workload: { kind: 'StatefulSet', name },
      };
    case 'DaemonSet':
      return {
        ...base,
        name: `${name}-${randomSuffix(random)}`,
        generateName: `${name}-`,
        labels: { ...app, 'controller-revision-hash': hash, 'pod-template-generation': '1' },
        owner: { apiVersion: 'apps/v1', kind: 'DaemonSet', name, uid: ownerUid },
        workload: { kind: 'DaemonSet', name },
      };
    case 'Job':
    case 'CronJob': {
      const job = template.kind === 'Job' ? name : cronJobName(template, i, ctx);
      const jobUid = template.kind === 'Job' ? ownerUid : random.uuid();
      return {
        ...base,
        name: `${job}-${randomSuffix(random)}`,
        generateName: `${job}-`,
        labels: {
          'batch.kubernetes.io/controller-uid': jobUid,
          'batch.kubernetes.io/job-name': job,
          'controller-uid': jobUid,
          'job-name': job,
        },
        owner: { apiVersion: 'batch/v1', kind: 'Job', name: job, uid: jobUid },
        workload: { kind: template.kind, name: template.kind === 'Job' ? name : template.name },
        ...(template.kind === 'CronJob' ? { createdAt: cronRunStart(template, i, ctx) } : {}),
      };
    }
    case 'Static': {
      const configHash = random.hex(32);
      return {
        ...base,
        name: `${name}-${nodeName}`,
        uid: configHash,
        labels: { component: name, tier: 'control-plane' },
        annotations: {
          'kubernetes.io/config.hash': configHash,
          'kubernetes.io/config.mirror': configHash,
          'kubernetes.io/config.source': 'file',
        },
        owner: { apiVersion: 'v1', kind: 'Node', name: nodeName, uid: ctx.nodeUid },
        workload: { kind: 'StaticPod', name },
      };
    }
    case 'Bare':
      return { ...base, name, labels: { run: name }, workload: { kind: 'Pod', name } };
  }
}

function volumesOf(template: WorkloadTemplate, i: number, ctx: MixContext): NonNullable<PodInput['volumes']> {
  const { random, nodeFsCapacityBytes } = ctx;
  const onNodeFs = (
    name: string,
    source: 'configMap' | 'emptyDir',
    usedBytes: number,
    growthBps: number,
  ) => ({
    name,
    source,
    capacityBytes: nodeFsCapacityBytes,
    usedBytes,
    growthBps,
  });
  const claim = template.claim;
  return [
    ...(template.configMaps ?? []).map((name) => onNodeFs(name, 'configMap', random.int(1, 6) * 4096, 0)),
    ...(template.emptyDirs ?? []).map((name) => onNodeFs(name, 'emptyDir', random.int(1, 3000) * 4096, 0.5)),
    ...Object.entries(template.hostPaths ?? {}).map(([name, hostPath]) => ({
      name,
      source: 'hostPath' as const,
      hostPath,
      capacityBytes: 0,
      usedBytes: 0,
      growthBps: 0,
    })),
    ...(claim
      ? [
          {
            name: claim.name,
            source: 'persistentVolumeClaim' as const,
            claimName: `${claim.name}-${template.name}-${i}`,
            // ext4 keeps a little of every volume for itself.
            capacityBytes: Math.floor((claim.gi * GiB * 0.984) / 4096) * 4096,
            usedBytes: Math.floor((claim.gi * GiB * random.between(0.05, 0.6)) / 4096) * 4096,
            growthBps: random.between(20, 4000),
          },
        ]
      : []),
  ];
}

/** A CronJob's Job is named after its scheduled time in minutes since the epoch. */
function cronJobName(template: WorkloadTemplate, run: number, ctx: MixContext): string {
  return `${template.name}-${Math.floor(cronRunStart(template, run, ctx) / MINUTE)}`;
}

function cronRunStart(template: WorkloadTemplate, run: number, ctx: MixContext): number {
  const every = (template.everyMinutes ?? 60) * MINUTE;
  // The newest run of a frequent job started seconds ago, so its container has no CPU rate yet.
  const newest = template.newestRunning ? ctx.now - 8000 : Math.floor((ctx.now - every / 3) / every) * every;
  return Math.floor(newest / MINUTE) * MINUTE - run * every;
}

function finishCronRun(pod: PodModel, template: WorkloadTemplate, run: number, ctx: MixContext): void {
  if (template.newestRunning && run === 0) {
    // Started a few seconds before the node model's clock.
    const shift = ctx.now - 6000 - (pod.sandbox?.startedAt ?? 0);
    shiftPod(pod, shift);
    return;
  }
  finish(pod, 'Succeeded', ctx);
}

function shiftPod(pod: PodModel, ms: number): void {
  pod.createdAt += ms;
  pod.startedAt += ms;
  if (pod.sandbox) pod.sandbox.startedAt += ms;
  for (const c of [...pod.initContainers, ...pod.containers]) {
    if (c.status.state === 'running') c.status.startedAt += ms;
    if (c.status.state === 'terminated') {
      c.status.termination.startedAt += ms;
      c.status.termination.finishedAt += ms;
    }
  }
}

/** Ends a pod that ran to completion (or failure) long ago: no sandbox, every container terminated. */
function finish(
  pod: PodModel,
  phase: 'Succeeded' | 'Failed',
  ctx: MixContext,
  exitCode = phase === 'Succeeded' ? 0 : 1,
): void {
  const { random } = ctx;
  for (const c of [...pod.initContainers, ...pod.containers]) {
    if (c.status.state !== 'running') continue;
    const finishedAt = Math.min(c.status.startedAt + random.int(20_000, 600_000), ctx.now - 1000);
    c.status = {
      state: 'terminated',
      termination: {
        reason: phase === 'Succeeded' ? 'Completed' : 'Error',
        exitCode,
        startedAt: c.status.startedAt,
        finishedAt,
        containerId: c.status.containerId,
      },
    };
  }
  pod.phase = phase;
  pod.sandbox = undefined;
}

function applyScenario(pod: PodModel, scenario: Scenario, ctx: MixContext): void {
  const { random, now } = ctx;
  switch (scenario.kind) {
    case 'succeeded':
    case 'failed':
      finish(pod, scenario.kind === 'succeeded' ? 'Succeeded' : 'Failed', ctx);
      return;
    case 'evicted':
      finish(pod, 'Failed', ctx, 137);
      pod.reason = 'Evicted';
      pod.message = `The node was low on resource: memory. Threshold quantity: 100Mi, available: 87316Ki. Container ${pod.containers[0]?.name ?? ''} was using 1410548Ki, request is 256Mi, has larger consumption of memory. `;
      return;
    case 'pending': {
      // Created a minute ago; the sandbox is up and the image is still being pulled.
      shiftPod(pod, now - 60_000 - pod.createdAt);
      for (const c of pod.containers)
        c.status = { state: 'waiting', reason: 'ContainerCreating', message: undefined };
      pod.phase = 'Pending';
      return;
    }
    case 'oomKilled':
    case 'restarted': {
      const c = containerOf(pod, scenario.container);
      const reason = scenario.kind === 'oomKilled' ? 'OOMKilled' : scenario.reason;
      const restartedAt = now - random.int(4 * MINUTE, 50 * MINUTE);
      const finishedAt = restartedAt - random.int(10_000, 40_000);
      endEarlierRuns(pod, c, { restarts: scenario.restarts, finishedAt, reason, keptRunning: true }, ctx);
      c.status = { state: 'running', containerId: ctx.factory.containerId(), startedAt: restartedAt };
      return;
    }
    case 'crashLoop': {
      const c = containerOf(pod, scenario.container);
      const finishedAt = now - random.int(60_000, 240_000);
      endEarlierRuns(
        pod,
        c,
        { restarts: scenario.restarts, finishedAt, reason: 'Error', keptRunning: false },
        ctx,
      );
      c.status = { state: 'waiting', reason: 'CrashLoopBackOff', message: backOffMessage(pod, c) };
      return;
    }
    case 'initCrashLoop': {
      // Stuck for about an hour: each failed try waits up to five minutes before the next.
      shiftPod(pod, now - HOUR - pod.createdAt);
      const c = containerOf(pod, scenario.container);
      const finishedAt = now - random.int(30_000, 200_000);
      endEarlierRuns(
        pod,
        c,
        { restarts: scenario.restarts, finishedAt, reason: 'Error', keptRunning: false },
        ctx,
      );
      c.status = { state: 'waiting', reason: 'CrashLoopBackOff', message: backOffMessage(pod, c) };
      const after = pod.initContainers.slice(pod.initContainers.indexOf(c) + 1);
      for (const later of [...after, ...pod.containers]) {
        later.status = { state: 'waiting', reason: 'PodInitializing', message: undefined };
      }
      pod.phase = 'Pending';
      return;
    }
  }
}

/**
 * Gives `c` a history of `restarts` runs, the last of which stopped at `finishedAt`. Runs that lasted
 * (`keptRunning`) stay counted in the pod's cgroup; a crash loop's runs last seconds and add nothing.
 */
function endEarlierRuns(
  pod: PodModel,
  c: ContainerModel,
  run: { restarts: number; finishedAt: number; reason: TerminationReason; keptRunning: boolean },
  ctx: MixContext,
): void {
  const firstStart =
    c.status.state === 'running'
      ? c.status.startedAt
      : c.status.state === 'terminated'
        ? c.status.termination.startedAt
        : pod.createdAt;
  if (run.keptRunning) {
    addLeafSample(
      pod.retired,
      { profile: c.profile, startedAt: firstStart, cpuLimitCores: c.cpuLimitCores },
      run.finishedAt,
    );
  }
  const lastRun = run.keptRunning
    ? (run.finishedAt - firstStart) / (run.restarts + 1)
    : ctx.random.int(2000, 9000);
  c.restartCount = run.restarts;
  c.lastTermination = {
    reason: run.reason,
    exitCode: exitCodeOf(run.reason),
    startedAt: Math.max(firstStart, run.finishedAt - lastRun),
    finishedAt: run.finishedAt,
    containerId: ctx.factory.containerId(),
  };
}

export function exitCodeOf(reason: string): number {
  if (reason === 'OOMKilled') return 137;
  if (reason === 'Completed') return 0;
  return 1;
}

export function backOffMessage(pod: PodModel, c: ContainerModel): string {
  return `back-off 5m0s restarting failed container=${c.name} pod=${pod.name}_${pod.namespace}(${pod.uid})`;
}

function containerOf(pod: PodModel, name: string): ContainerModel {
  const found = [...pod.initContainers, ...pod.containers].find((c) => c.name === name);
  if (!found) throw new Error(`the template of ${pod.name} has no container ${name}`);
  return found;
}
