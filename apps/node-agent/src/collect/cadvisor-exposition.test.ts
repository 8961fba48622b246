import { parseExposition, scanExposition } from '@noderings/prom';
import type { ExpositionSample } from '@noderings/prom';
import { describe, expect, test } from 'vitest';

import { cadvisorBody, cgroupPath, T0 } from './kubelet-fixtures.test-support.js';

function scanAll(text: string, accept: (name: string) => boolean = () => true): ExpositionSample[] {
  const samples: ExpositionSample[] = [];
  scanExposition(text, accept, (name, labels, value, timestampMs) => {
    samples.push({ name, labels, value, timestampMs });
  });
  return samples;
}

describe('scanExposition on a cAdvisor answer', () => {
  const containers = [
    {
      uid: '4f1c8a2e-9b7d-4c3e-8f6a-1b2c3d4e5f60',
      pod: 'web-7d9f8c6b5d-x2x9q',
      container: 'web',
      cfs: { periods: 1200, throttledPeriods: 300 },
      oomEvents: 1,
      fs: [
        { device: '/dev/nvme0n1', readBytes: 4096, writeBytes: 8192 },
        { device: '/dev/nvme1n1', readBytes: 1.5e9, writeBytes: 2e9 },
      ],
    },
    { uid: '0a1b2c3d-0000-4000-8000-00000000beef', pod: 'db-0', container: 'postgres', oomEvents: 0 },
  ];
  const text = cadvisorBody(T0, containers);

  const samplesOf = (body: string) => parseExposition(body).flatMap((family) => family.samples);

  test('passes on the same samples as the full parser on a cAdvisor document', () => {
    expect(scanAll(text)).toEqual(samplesOf(text));
    expect(scanAll(text).length).toBeGreaterThan(50);
  });

  test('passes on only the accepted families, asking once per run of lines with the same name', () => {
    const asked: string[] = [];
    const wanted = new Set(['container_oom_events_total', 'machine_cpu_cores']);
    const samples = scanAll(text, (name) => {
      asked.push(name);
      return wanted.has(name);
    });
    expect(new Set(samples.map((sample) => sample.name))).toEqual(wanted);
    expect(asked).toEqual([...new Set(asked)]);
    expect(samples).toContainEqual({
      name: 'container_oom_events_total',
      labels: {
        container: 'web',
        id: cgroupPath(containers[0]?.uid ?? '', '1f2e3d'),
        image: 'shop/web:1.4.2',
        name: `${'9c3a7e'.repeat(10)}dead`,
        namespace: 'shop',
        pod: 'web-7d9f8c6b5d-x2x9q',
      },
      value: 1,
      timestampMs: T0,
    });
  });
});
