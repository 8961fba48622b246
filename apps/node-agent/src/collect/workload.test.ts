import { describe, expect, test } from 'vitest';

import type { OwnerReference, PodMetadata } from './kubelet-documents.js';
import { resolveWorkload } from './workload.js';

function pod(
  name: string,
  options: {
    owners?: OwnerReference[];
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  } = {},
): { metadata: PodMetadata } {
  return {
    metadata: {
      name,
      namespace: 'shop',
      uid: 'uid-1',
      labels: options.labels ?? {},
      annotations: options.annotations ?? { 'kubernetes.io/config.source': 'api' },
      ownerReferences: options.owners ?? [],
    },
  };
}

const replicaSet = (name: string): OwnerReference[] => [{ kind: 'ReplicaSet', name, controller: true }];

describe('resolveWorkload', () => {
  test('a ReplicaSet whose name ends with the pod-template-hash belongs to a Deployment', () => {
    const web = pod('web-7d9f8c6b5d-x2x9q', {
      owners: replicaSet('web-7d9f8c6b5d'),
      labels: { app: 'web', 'pod-template-hash': '7d9f8c6b5d' },
    });
    expect(resolveWorkload(web)).toEqual({ kind: 'Deployment', name: 'web' });
  });

  test('short hashes and names with dashes still resolve to the Deployment', () => {
    for (const hash of ['5', 'b4', '6c8f9']) {
      const api = pod(`payments-api-v2-${hash}-abcde`, {
        owners: replicaSet(`payments-api-v2-${hash}`),
        labels: { 'pod-template-hash': hash },
      });
      expect(resolveWorkload(api), hash).toEqual({ kind: 'Deployment', name: 'payments-api-v2' });
    }
  });

  test('a ReplicaSet of an Argo Rollout resolves to the Rollout', () => {
    const canary = pod('checkout-6f7d8c9b4-k2l3m', {
      owners: replicaSet('checkout-6f7d8c9b4'),
      labels: { 'rollouts-pod-template-hash': '6f7d8c9b4' },
    });
    expect(resolveWorkload(canary)).toEqual({ kind: 'Rollout', name: 'checkout' });
  });

  test('a ReplicaSet whose name does not end with the pod hash stays a ReplicaSet', () => {
    expect(resolveWorkload(pod('legacy-abcde', { owners: replicaSet('legacy') }))).toEqual({
      kind: 'ReplicaSet',
      name: 'legacy',
    });
    const mismatched = pod('web-1-x', { owners: replicaSet('web-1'), labels: { 'pod-template-hash': '2' } });
    expect(resolveWorkload(mismatched)).toEqual({ kind: 'ReplicaSet', name: 'web-1' });
    const hashIsWholeName = pod('abc-x', {
      owners: replicaSet('abc'),
      labels: { 'pod-template-hash': 'abc' },
    });
    expect(resolveWorkload(hashIsWholeName)).toEqual({ kind: 'ReplicaSet', name: 'abc' });
  });

  test('StatefulSet, DaemonSet and Job pods belong to their direct owner, CronJob children to their Job', () => {
    for (const kind of ['StatefulSet', 'DaemonSet', 'Job'] as const) {
      expect(resolveWorkload(pod('x-0', { owners: [{ kind, name: 'owner', controller: true }] }))).toEqual({
        kind,
        name: 'owner',
      });
    }
    const cronChild = pod('backup-29123400-7xk2p', {
      owners: [{ kind: 'Job', name: 'backup-29123400', controller: true }],
    });
    expect(resolveWorkload(cronChild)).toEqual({ kind: 'Job', name: 'backup-29123400' });
  });

  test('static pods are named after themselves, whichever sign gives them away', () => {
    const fromFile = pod('kube-apiserver-node-a', {
      annotations: { 'kubernetes.io/config.source': 'file', 'kubernetes.io/config.hash': 'abc' },
    });
    const fromUrl = pod('etcd-node-a', { annotations: { 'kubernetes.io/config.source': 'http' } });
    const mirror = pod('kube-scheduler-node-a', {
      annotations: { 'kubernetes.io/config.mirror': 'abc', 'kubernetes.io/config.source': 'api' },
    });
    const ownedByNode = pod('kube-proxy-node-a', {
      owners: [{ kind: 'Node', name: 'node-a', controller: true }],
    });
    for (const staticPod of [fromFile, fromUrl, mirror, ownedByNode]) {
      expect(resolveWorkload(staticPod)).toEqual({ kind: 'StaticPod', name: staticPod.metadata.name });
    }
  });

  test('a pod without an owner, or with an owner of another kind, is its own workload', () => {
    expect(resolveWorkload(pod('debug'))).toEqual({ kind: 'Pod', name: 'debug' });
    const custom = pod('spark-driver', {
      owners: [{ kind: 'SparkApplication', name: 'etl', controller: true }],
    });
    expect(resolveWorkload(custom)).toEqual({ kind: 'Pod', name: 'spark-driver' });
  });

  test('the controlling owner wins over other owners', () => {
    const owners: OwnerReference[] = [
      { kind: 'ConfigMap', name: 'cm' },
      { kind: 'StatefulSet', name: 'db', controller: true },
    ];
    expect(resolveWorkload(pod('db-0', { owners }))).toEqual({ kind: 'StatefulSet', name: 'db' });
  });
});
