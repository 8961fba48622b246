import { describe, expect, test } from 'vitest';

import { podItem, podListBody, summaryBody, summaryDocument, T0 } from './kubelet-fixtures.test-support.js';
import { KubeletDocumentError, parsePodList, parseStatsSummary } from './kubelet-documents.js';

function errorOf(parse: () => unknown): KubeletDocumentError {
  try {
    parse();
  } catch (e: unknown) {
    if (e instanceof KubeletDocumentError) return e;
    throw e;
  }
  throw new Error('expected a KubeletDocumentError');
}

/** A summary document with one pod of two containers, as JSON to break in place. */
function summaryJson(): { pods: { containers: Record<string, unknown>[] }[] } & Record<string, unknown> {
  const containers = [{ name: 'web', cpuNs: 4.2e12 }, { name: 'sidecar' }];
  return JSON.parse(
    JSON.stringify(summaryDocument(T0, { cpuNs: 1e15 }, [{ uid: 'u1', name: 'web-1', containers }])),
  ) as { pods: { containers: Record<string, unknown>[] }[] } & Record<string, unknown>;
}

describe('parseStatsSummary', () => {
  test('keeps the fields the agent uses and ignores the rest', () => {
    const summary = parseStatsSummary(
      summaryBody(T0, { cpuNs: 1e15, workingSetBytes: 4.2e9, fsUsedBytes: 3.9e10 }, [
        {
          uid: 'u1',
          name: 'web-1',
          cpuNs: 4.4e12,
          containers: [{ name: 'web', cpuNs: 4.2e12, logsBytes: 1024 }],
        },
      ]),
    );
    expect(summary.node.cpu).toEqual({ time: '2026-08-01T10:00:00Z', usageCoreNanoSeconds: 1e15 });
    expect(summary.node.memory?.workingSetBytes).toBe(4.2e9);
    expect(summary.node.fs?.usedBytes).toBe(3.9e10);
    expect(summary.pods[0]?.podRef).toEqual({ name: 'web-1', namespace: 'shop', uid: 'u1' });
    expect(summary.pods[0]?.containers[0]?.logs?.usedBytes).toBe(1024);
    expect(summary.pods[0]?.containers[0]?.cpu).not.toHaveProperty('usageNanoCores');
  });

  test('accepts missing numbers and sections, and null lists as Go writes them', () => {
    const summary = parseStatsSummary(JSON.stringify({ node: { nodeName: 'n' }, pods: null }));
    expect(summary).toEqual({
      node: { nodeName: 'n', cpu: undefined, memory: undefined, network: undefined, fs: undefined },
      pods: [],
    });
    const pod = parseStatsSummary(
      JSON.stringify({
        node: {},
        pods: [{ podRef: { name: 'p', namespace: 'n', uid: 'u' }, containers: null }],
      }),
    ).pods[0];
    expect(pod?.containers).toEqual([]);
  });

  test('names the path of a number of the wrong type', () => {
    const document = summaryJson();
    const container = document.pods[0]?.containers[0];
    if (container === undefined) throw new Error('fixture has no container');
    container.cpu = { time: '2026-08-01T10:00:00Z', usageCoreNanoSeconds: '42' };
    const error = errorOf(() => parseStatsSummary(JSON.stringify(document)));
    expect(error.path).toBe('pods[0].containers[0].cpu.usageCoreNanoSeconds');
    expect(error.message).toBe('pods[0].containers[0].cpu.usageCoreNanoSeconds: expected a number');
  });

  test.each([
    ['{"node": []}', 'node: expected an object'],
    ['{"pods": []}', 'node: expected an object'],
    ['[]', 'expected an object'],
    ['{"node": {}, "pods": {}}', 'pods: expected an array'],
    [
      '{"node": {"memory": {"workingSetBytes": -1}}}',
      'node.memory.workingSetBytes: expected a non-negative number',
    ],
    ['{"node": {"cpu": {"time": "yesterday"}}}', 'node.cpu.time: expected an RFC 3339 time'],
    ['{"node": {"fs": 5}}', 'node.fs: expected an object'],
    [
      '{"node": {}, "pods": [{"podRef": {"name": "p", "namespace": "n"}}]}',
      'pods[0].podRef.uid: expected a non-empty string',
    ],
    [
      '{"node": {}, "pods": [{"podRef": {"name": "p", "namespace": "n", "uid": "u"}, "containers": [{}]}]}',
      'pods[0].containers[0].name: expected a non-empty string',
    ],
    [
      '{"node": {}, "pods": [{"podRef": {"name": "p", "namespace": "n", "uid": "u"}, "network": {"rxBytes": true}}]}',
      'pods[0].network.rxBytes: expected a number',
    ],
  ])('rejects %s', (text, message) => {
    expect(errorOf(() => parseStatsSummary(text)).message).toBe(message);
  });

  test('rejects text that is not JSON with a KubeletDocumentError, not a SyntaxError', () => {
    expect(errorOf(() => parseStatsSummary('<html>502 Bad Gateway</html>')).message).toMatch(
      /^not valid JSON \(/,
    );
  });
});

describe('parsePodList', () => {
  test('reads metadata, owners, phases, restart counts, waiting reasons and last termination reasons', () => {
    const list = parsePodList(
      podListBody([
        {
          uid: 'u1',
          name: 'web-7d9f8c6b5d-x2x9q',
          labels: { app: 'web', 'pod-template-hash': '7d9f8c6b5d' },
          owner: { kind: 'ReplicaSet', name: 'web-7d9f8c6b5d' },
          phase: 'Pending',
          containers: [
            { name: 'web', restartCount: 3, waiting: 'CrashLoopBackOff', lastTerminationReason: 'OOMKilled' },
          ],
          initContainers: [{ name: 'migrate' }],
        },
      ]),
    );
    expect(list.items[0]).toEqual({
      metadata: {
        name: 'web-7d9f8c6b5d-x2x9q',
        namespace: 'shop',
        uid: 'u1',
        labels: { app: 'web', 'pod-template-hash': '7d9f8c6b5d' },
        annotations: { 'kubernetes.io/config.source': 'api' },
        ownerReferences: [{ kind: 'ReplicaSet', name: 'web-7d9f8c6b5d', controller: true }],
      },
      status: {
        phase: 'Pending',
        containerStatuses: [
          {
            name: 'web',
            restartCount: 3,
            waitingReason: 'CrashLoopBackOff',
            lastTerminationReason: 'OOMKilled',
          },
        ],
        initContainerStatuses: [
          { name: 'migrate', restartCount: 0, waitingReason: undefined, lastTerminationReason: undefined },
        ],
      },
    });
  });

  test('accepts a pod without status, labels or owners, and an empty list', () => {
    const pod = parsePodList(
      JSON.stringify({ items: [{ metadata: { name: 'p', namespace: 'n', uid: 'u' } }] }),
    ).items[0];
    expect(pod?.metadata.labels).toEqual({});
    expect(pod?.metadata.ownerReferences).toEqual([]);
    expect(pod?.status).toEqual({ phase: undefined, containerStatuses: [], initContainerStatuses: [] });
    expect(parsePodList('{"kind":"PodList","items":null}').items).toEqual([]);
  });

  function brokenList(mutate: (pod: Record<string, Record<string, unknown>>) => void): string {
    const good = podItem({ uid: 'u2', name: 'ok', containers: [{ name: 'c' }] });
    const pod = JSON.parse(
      JSON.stringify(podItem({ uid: 'u1', name: 'p', containers: [{ name: 'c' }] })),
    ) as Record<string, Record<string, unknown>>;
    mutate(pod);
    return JSON.stringify({ items: [good, pod] });
  }

  test.each<[string, (pod: Record<string, Record<string, unknown>>) => void, string]>([
    [
      'a restart count that is a string',
      (pod) => {
        pod.status = { containerStatuses: [{ name: 'c', restartCount: '2' }] };
      },
      'items[1].status.containerStatuses[0].restartCount: expected a number',
    ],
    [
      'a label value that is a number',
      (pod) => {
        pod.metadata = { ...pod.metadata, labels: { 'app.kubernetes.io/version': 2 } };
      },
      'items[1].metadata.labels["app.kubernetes.io/version"]: expected a string',
    ],
    [
      'an owner without a kind',
      (pod) => {
        pod.metadata = { ...pod.metadata, ownerReferences: [{ name: 'rs' }] };
      },
      'items[1].metadata.ownerReferences[0].kind: expected a non-empty string',
    ],
    [
      'a waiting reason that is an object',
      (pod) => {
        pod.status = { initContainerStatuses: [{ name: 'c', state: { waiting: { reason: {} } } }] };
      },
      'items[1].status.initContainerStatuses[0].state.waiting.reason: expected a string',
    ],
    [
      'a missing uid',
      (pod) => {
        pod.metadata = { name: 'p', namespace: 'n' };
      },
      'items[1].metadata.uid: expected a non-empty string',
    ],
    [
      'a controller flag that is a string',
      (pod) => {
        pod.metadata = { ...pod.metadata, ownerReferences: [{ kind: 'Job', name: 'j', controller: 'yes' }] };
      },
      'items[1].metadata.ownerReferences[0].controller: expected a boolean',
    ],
  ])('rejects %s with its path', (_what, mutate, message) => {
    expect(errorOf(() => parsePodList(brokenList(mutate))).message).toBe(message);
  });
});
