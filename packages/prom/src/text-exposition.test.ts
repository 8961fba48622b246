import { describe, expect, test } from 'vitest';

import { counter, gauge } from './metric-family.js';
import { formatSampleValue, renderTextExposition } from './text-exposition.js';

describe('formatSampleValue', () => {
  test.each([
    [1, '1.0'],
    [0, '0.0'],
    [-0, '-0.0'],
    [2048, '2048.0'],
    [864000, '864000.0'],
    [0.0512, '0.0512'],
    [0.1 + 0.2, '0.30000000000000004'],
    [3.5, '3.5'],
  ])('%s is written as Python writes the float: %s', (value, text) => {
    expect(formatSampleValue(value)).toBe(text);
  });

  test.each([
    [4444444, '4.444444e+06'],
    [107374182400, '1.073741824e+11'],
    [1700000000, '1.7e+09'],
    [1700000900, '1.7000009e+09'],
    [1000000000, '1e+09'],
    [1234567.5, '1.2345675e+06'],
  ])(
    'positive values with more than six integer digits switch to e-notation, as Go does: %s',
    (value, text) => {
      expect(formatSampleValue(value)).toBe(text);
    },
  );

  test.each([
    [-1234567, '-1234567.0'],
    [1e16, '1e+16'],
    [1.5e22, '1.5e+22'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [-2.5e-7, '-2.5e-07'],
    [Number.NaN, 'NaN'],
    [Infinity, '+Inf'],
    [-Infinity, '-Inf'],
  ])('the other ranges follow Python: %s', (value, text) => {
    expect(formatSampleValue(value)).toBe(text);
  });
});

describe('renderTextExposition', () => {
  test('HELP and TYPE per family, labels sorted by name, no braces without labels', () => {
    const up = gauge('pve_up', 'Node/VM/CT-Status is online/running');
    up.samples.push({ labels: { type: 'qemu', id: 'qemu/100', node: 'pve1', name: 'NR-1' }, value: 1 });
    const total = counter('pve_request_errors_total', 'Errors');
    total.samples.push({ labels: {}, value: 0 });
    expect(renderTextExposition([up, total])).toBe(
      [
        '# HELP pve_up Node/VM/CT-Status is online/running',
        '# TYPE pve_up gauge',
        'pve_up{id="qemu/100",name="NR-1",node="pve1",type="qemu"} 1.0',
        '# HELP pve_request_errors_total Errors',
        '# TYPE pve_request_errors_total counter',
        'pve_request_errors_total 0.0',
        '',
      ].join('\n'),
    );
  });

  test('a family without samples still has its HELP and TYPE lines; no families render nothing', () => {
    expect(renderTextExposition([gauge('pve_replication_info', 'Proxmox vm replication info')])).toBe(
      '# HELP pve_replication_info Proxmox vm replication info\n# TYPE pve_replication_info gauge\n',
    );
    expect(renderTextExposition([])).toBe('');
  });

  test('label values escape backslash, double quote and newline; HELP escapes backslash and newline only', () => {
    const info = gauge('pve_guest_info', 'VM/CT "info" with a \\ and\na newline');
    info.samples.push({ labels: { name: 'a\\b "c"\nd', tags: 'x;y' }, value: 1 });
    expect(renderTextExposition([info]).split('\n')).toEqual([
      '# HELP pve_guest_info VM/CT "info" with a \\\\ and\\na newline',
      '# TYPE pve_guest_info gauge',
      'pve_guest_info{name="a\\\\b \\"c\\"\\nd",tags="x;y"} 1.0',
      '',
    ]);
  });

  test('samples keep the order in which they were added', () => {
    const size = gauge('pve_disk_size_bytes', 'size');
    for (const id of ['node/pve2', 'node/pve1', 'qemu/100']) size.samples.push({ labels: { id }, value: 1 });
    expect(
      renderTextExposition([size])
        .split('\n')
        .filter((line) => line.startsWith('pve_')),
    ).toEqual([
      'pve_disk_size_bytes{id="node/pve2"} 1.0',
      'pve_disk_size_bytes{id="node/pve1"} 1.0',
      'pve_disk_size_bytes{id="qemu/100"} 1.0',
    ]);
  });
});
