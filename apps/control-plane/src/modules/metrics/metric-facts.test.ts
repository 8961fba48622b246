import { STALE_NAN, type TimeSeries } from '@noderings/remote-write';
import { describe, expect, it } from 'vitest';

import { readMetricFacts, ScopeViolation } from './metric-facts.js';

const AGENT = '3f1c2d4e-0000-4000-8000-000000000001';
const VM = '0b8d6a52-1111-4111-8111-000000000002';
const INSTANCE = '192.0.2.10:8006';

function series(name: string, labels: Record<string, string>, ...values: [number, number][]): TimeSeries {
  return {
    labels: Object.entries({ __name__: name, agent_id: AGENT, instance: INSTANCE, ...labels }).map(
      ([n, value]) => ({ name: n, value }),
    ),
    samples: values.map(([timestampMs, value]) => ({ timestampMs, value })),
  };
}

const guest = (vmid: number, name: string) => ({ id: `qemu/${vmid}`, name, node: 'pve1', type: 'qemu' });

describe('readMetricFacts', () => {
  it('reads host status, node inventory, storage pools and non-NR sums', () => {
    const facts = readMetricFacts(
      [
        series('pve_up', { id: 'node/pve1' }, [1000, 1]),
        series('pve_up', { id: 'cluster/prod' }, [1000, 0]),
        series('pve_cpu_usage_limit', { id: 'node/pve1' }, [1000, 32]),
        series('pve_memory_size_bytes', { id: 'node/pve1' }, [1000, 2 ** 37]),
        series('pve_disk_size_bytes', { id: 'storage/pve1/local-lvm' }, [1000, 5e11]),
        series('pve_disk_usage_bytes', { id: 'storage/pve1/local-lvm' }, [1000, 1e11]),
        series('non_nr_pve_cpu_usage_limit', { node: 'pve1' }, [1000, 4]),
        series('non_nr_pve_memory_size_bytes', { node: 'pve1' }, [1000, STALE_NAN]),
      ],
      AGENT,
    );
    expect(facts.hostUps).toEqual([
      { instance: INSTANCE, host: 'node/pve1', up: true, timestampMs: 1000 },
      { instance: INSTANCE, host: 'cluster/prod', up: false, timestampMs: 1000 },
    ]);
    expect(facts.nodes.get(INSTANCE)?.get('pve1')).toEqual({
      cpuCores: 32,
      memoryBytes: 2 ** 37,
      nonNrCpuCores: 4,
      // The series went stale: the sum is back to 0.
      nonNrMemoryBytes: 0,
      storagePools: new Map([['local-lvm', { totalBytes: 5e11, allocatedBytes: 1e11 }]]),
    });
  });

  it("keeps only NodeRings guests' series, whatever the agent sent", () => {
    const facts = readMetricFacts(
      [
        series('pve_cpu_usage_ratio', guest(100, `NR-${VM}`), [1000, 0.5]),
        series('pve_cpu_usage_ratio', guest(101, 'lab-vm'), [1000, 0.9]),
        series('pve_cpu_usage_ratio', { id: 'qemu/102' }, [1000, 0.9]),
        series('pve_lock_state', { ...guest(100, `NR-${VM}`), state: 'backup' }, [1000, 1]),
        series('pve_ha_state', { ...guest(100, `NR-${VM}`), state: 'started' }, [1000, 1]),
        series('node_cpu_seconds_total', { cpu: '0' }, [1000, 5]),
      ],
      AGENT,
    );
    expect(facts.vmSeries).toEqual([
      {
        instance: INSTANCE,
        vmId: VM,
        vmid: 100,
        metric: 'cpu',
        kind: 'gauge',
        samples: [{ timestampMs: 1000, value: 0.5 }],
      },
    ]);
    expect(facts.dropped).toBe(5);
    expect(facts.forwarded).toHaveLength(1);
  });

  it('sorts samples and leaves out NaN and stale markers of VM series', () => {
    const facts = readMetricFacts(
      [
        series(
          'pve_network_transmit_bytes_total',
          guest(100, `NR-${VM}`),
          [3000, 30],
          [1000, 10],
          [2000, STALE_NAN],
        ),
      ],
      AGENT,
    );
    expect(facts.vmSeries[0]?.samples).toEqual([
      { timestampMs: 1000, value: 10 },
      { timestampMs: 3000, value: 30 },
    ]);
  });

  it('counts forwarded series it has no use for, and NR names that are not a VM id', () => {
    const facts = readMetricFacts(
      [
        series('pve_version_info', { version: '8.3.0' }, [1000, 1]),
        series('pve_up', guest(100, 'NR-not-a-uuid'), [1000, 1]),
      ],
      AGENT,
    );
    expect(facts).toMatchObject({ dropped: 0, unused: 2, vmSeries: [] });
  });

  it("refuses a request with another agent's series, or a series without agent_id", () => {
    const other = series('pve_up', { id: 'node/pve1', agent_id: 'another-agent' }, [1000, 1]);
    expect(() => readMetricFacts([series('pve_up', { id: 'node/pve1' }, [1000, 1]), other], AGENT)).toThrow(
      new ScopeViolation(
        `timeseries[1] is labelled agent_id="another-agent": this credential writes only for agent ${AGENT}.`,
      ),
    );
    const unlabelled: TimeSeries = { labels: [{ name: '__name__', value: 'pve_up' }], samples: [] };
    expect(() => readMetricFacts([unlabelled], AGENT)).toThrow('timeseries[0] has no agent_id label.');
  });
});
