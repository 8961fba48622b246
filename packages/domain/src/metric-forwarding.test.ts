import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  FORWARDED_FAMILIES,
  forwardingDecision,
  forwardingPatterns,
  GUEST_DROPPED_FAMILIES,
} from './metric-forwarding.js';

const NR = 'NR-0b8e1f2a-3c4d-4e5f-8a9b-0c1d2e3f4a5b';

describe('forwarding rules', () => {
  const cases: [string, string, Record<string, string>, boolean, string?][] = [
    ['cluster up', 'pve_up', { id: 'cluster/sim' }, true],
    ['node memory', 'pve_memory_size_bytes', { id: 'node/pve1', name: 'pve1' }, true],
    ['storage size', 'pve_disk_size_bytes', { id: 'storage/pve1/local-lvm' }, true],
    ['NR guest CPU', 'pve_cpu_usage_ratio', { id: 'qemu/1042', name: NR, node: 'pve1', type: 'qemu' }, true],
    ['NR container traffic', 'pve_network_transmit_bytes_total', { id: 'lxc/1043', name: NR }, true],
    ['lab VM', 'pve_cpu_usage_ratio', { id: 'qemu/100', name: 'lab-db' }, false, 'GUEST_NOT_NR'],
    ['template', 'pve_guest_info', { id: 'qemu/9000', name: 'ubuntu-24.04' }, false, 'GUEST_NOT_NR'],
    ['guest without a name', 'pve_up', { id: 'qemu/101' }, false, 'GUEST_NOT_NR'],
    ['name that only contains NR-', 'pve_up', { id: 'qemu/102', name: 'old-NR-x' }, false, 'GUEST_NOT_NR'],
    ['NR guest HA state', 'pve_ha_state', { id: 'qemu/1042', name: NR }, false, 'GUEST_STATE_DROPPED'],
    ['NR guest lock', 'pve_lock_state', { id: 'lxc/1043', name: NR }, false, 'GUEST_STATE_DROPPED'],
    ['unlisted family', 'pve_onboot_status', { id: 'qemu/1042', name: NR }, false, 'FAMILY_NOT_FORWARDED'],
    ['exporter self-metric', 'process_cpu_seconds_total', {}, false, 'FAMILY_NOT_FORWARDED'],
    ['non-NR usage per node', 'non_nr_pve_memory_size_bytes', { id: 'node/pve1' }, true],
    ['backup coverage', 'pve_not_backed_up_total', { id: 'cluster/sim' }, true],
    ['subscription', 'pve_subscription_status', { id: 'node/pve1' }, true],
    ['prefix alone is no family', 'pve_subscription_', { id: 'node/pve1' }, false, 'FAMILY_NOT_FORWARDED'],
  ];

  it.each(cases)('%s', (_name, metric, labels, forward, reason) => {
    const decision = forwardingDecision(metric, labels);
    expect(decision.forward).toBe(forward);
    if (!decision.forward) expect(decision.reason).toBe(reason);
  });

  /** The patterns, as Prometheus applies relabel regexes: anchored at both ends. */
  function byPatterns(metric: string, labels: Record<string, string>): boolean {
    const p = forwardingPatterns();
    const full = (pattern: string, value: string) => new RegExp(`^(?:${pattern})$`).test(value);
    if (!full(p.forwardedNames, metric)) return false;
    const isGuest = full(p.guestId, labels.id ?? '');
    if (isGuest && full(p.guestDroppedNames, metric)) return false;
    return !isGuest || full(p.nrGuestName, labels.name ?? '');
  }

  it('renders as patterns that decide every series the same way', () => {
    const metric = fc.oneof(
      fc.constantFrom(...FORWARDED_FAMILIES, ...GUEST_DROPPED_FAMILIES, 'pve_onboot_status', 'up'),
      fc
        .constantFrom('pve_not_backed_up_', 'pve_subscription_', 'pve_replication_')
        .chain((p) => fc.stringMatching(/^[a-z_]{0,8}$/).map((rest) => p + rest)),
    );
    const id = fc.oneof(
      fc.constantFrom('cluster/sim', 'node/pve1', 'storage/pve1/local'),
      fc.tuple(fc.constantFrom('qemu', 'lxc'), fc.nat(99999)).map(([k, n]) => `${k}/${String(n)}`),
    );
    const name = fc.oneof(fc.constant(NR), fc.constant('NR-'), fc.string({ maxLength: 12 }));
    fc.assert(
      fc.property(metric, id, name, (m, i, n) => {
        expect(byPatterns(m, { id: i, name: n })).toBe(forwardingDecision(m, { id: i, name: n }).forward);
      }),
    );
  });
});
