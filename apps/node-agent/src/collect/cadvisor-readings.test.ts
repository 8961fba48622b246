import { describe, expect, test } from 'vitest';

import { podUidFromCgroup, readCadvisor } from './cadvisor-readings.js';
import { cadvisorBody, T0 } from './kubelet-fixtures.test-support.js';

const UID = '4f1c8a2e-9b7d-4c3e-8f6a-1b2c3d4e5f60';
const noLookup = () => undefined;

describe('podUidFromCgroup', () => {
  test.each([
    [
      'systemd driver',
      `/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${UID.replaceAll('-', '_')}.slice/cri-containerd-3f9a.scope`,
      UID,
    ],
    [
      'systemd driver, guaranteed QoS',
      `/kubepods.slice/kubepods-pod${UID.replaceAll('-', '_')}.slice/crio-3f9a.scope`,
      UID,
    ],
    ['cgroupfs driver', `/kubepods/besteffort/pod${UID}/0123456789abcdef`, UID],
    [
      'static pod (config hash)',
      '/kubepods/burstable/pod6a5b9c4d3e2f10987a6b5c4d3e2f1098/abc',
      '6a5b9c4d3e2f10987a6b5c4d3e2f1098',
    ],
    ['system slice', '/system.slice/containerd.service', undefined],
    ['root', '/', undefined],
    ['QoS slice only', '/kubepods.slice/kubepods-burstable.slice', undefined],
  ])('%s', (_what, cgroup, uid) => {
    expect(podUidFromCgroup(cgroup)).toBe(uid);
  });
});

describe('readCadvisor', () => {
  test('keeps only real containers, keyed by pod UID and container name', () => {
    const readings = readCadvisor(
      cadvisorBody(
        T0,
        [
          {
            uid: UID,
            pod: 'web-1',
            container: 'web',
            oomEvents: 2,
            cfs: { periods: 10, throttledPeriods: 1 },
          },
        ],
        12,
      ),
      T0 + 5_000,
      noLookup,
    );
    expect(readings.machineCpuCores).toBe(12);
    expect([...readings.containers.keys()]).toEqual([`${UID}/web`]);
    const web = readings.containers.get(`${UID}/web`);
    expect(web).toMatchObject({
      namespace: 'shop',
      pod: 'web-1',
      container: 'web',
      podUid: UID,
      oomTimestampMs: T0,
    });
    expect([...(web?.oomEvents.values() ?? [])]).toEqual([2]);
    expect([...(web?.cfs.values() ?? [])]).toEqual([{ periods: 10, throttledPeriods: 1, timestampMs: T0 }]);
  });

  test('asks for the UID of a pod whose cgroup path does not carry it, and stamps rows without a time', () => {
    const text = [
      'container_oom_events_total{container="web",id="/runtime/abc",namespace="shop",pod="web-1"} 1',
      'container_oom_events_total{container="web",id="/runtime/def",namespace="shop",pod="lost"} 1',
      'container_oom_events_total{container="web",namespace="shop"} 1',
      '',
    ].join('\n');
    const readings = readCadvisor(text, T0 + 5_000, (namespace, pod) =>
      pod === 'web-1' ? `${namespace}-uid` : undefined,
    );
    expect([...readings.containers.keys()]).toEqual(['shop-uid/web', 'shop/lost/web//runtime/def']);
    expect(readings.containers.get('shop-uid/web')?.oomTimestampMs).toBe(T0 + 5_000);
  });
});
