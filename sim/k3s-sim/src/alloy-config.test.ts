import { renderAlloyConfig } from '@noderings/deploy';
import { forwardingDecision } from '@noderings/domain';
import { describe, expect, it } from 'vitest';

import { AlloyConfigError, durationMs, parseAlloyPipeline } from './alloy-config.js';
import { relabel } from './relabel-rules.js';

const AGENT = '0b8e1f2a-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const RENDERED = {
  exporter: 'pve-exporter.proxmox-system.svc:9221',
  platformEndpoint: 'pve.example.com:8006',
  agentId: AGENT,
  remoteWriteUrl: 'https://api.noderings.example/api/v1/write',
};

describe("the Alloy stand-in's reading of the stack's configuration", () => {
  it('finds the scrape, its target and parameters, the rules and the remote write', () => {
    const pipeline = parseAlloyPipeline(
      renderAlloyConfig({ ...RENDERED, bearerTokenEnv: 'NR_METRICS_WRITE_TOKEN', scrapeInterval: '1m30s' }),
    );
    expect(pipeline).toMatchObject({
      component: 'prometheus.scrape.pve',
      target: {
        __address__: 'pve-exporter.proxmox-system.svc:9221',
        instance: 'pve.example.com:8006',
        agent_id: AGENT,
      },
      metricsPath: '/pve',
      params: { target: ['pve.example.com:8006'], cluster: ['1'], node: ['1'] },
      scrapeIntervalMs: 90_000,
      remoteWriteUrl: 'https://api.noderings.example/api/v1/write',
      bearer: { env: 'NR_METRICS_WRITE_TOKEN' },
    });
    expect(pipeline.rules.map((r) => r.action)).toEqual(['keep', 'replace', 'drop', 'drop', 'labeldrop']);
    expect(
      parseAlloyPipeline(renderAlloyConfig({ ...RENDERED, bearerTokenFile: '/etc/noderings/token' })).bearer,
    ).toEqual({ file: '/etc/noderings/token' });
  });

  it('keeps exactly the series the forwarding rules forward', () => {
    const { rules } = parseAlloyPipeline(renderAlloyConfig({ ...RENDERED, bearerTokenEnv: 'T' }));
    const series: [string, Record<string, string>][] = [
      ['pve_up', { id: 'node/pve1' }],
      ['up', {}],
      ['pve_cpu_usage_ratio', { id: 'qemu/1042', name: `NR-${AGENT}` }],
      ['pve_cpu_usage_ratio', { id: 'qemu/100', name: 'lab' }],
      ['pve_memory_size_bytes', { id: 'lxc/101' }],
      ['pve_lock_state', { id: 'qemu/1042', name: 'NR-x', state: 'backup' }],
      ['non_nr_pve_disk_size_bytes', { node: 'pve1' }],
      ['pve_onboot_status', { id: 'qemu/1042', name: 'NR-x' }],
    ];
    for (const [name, labels] of series) {
      const kept = relabel(rules, { __name__: name, ...labels });
      expect({ name, labels, kept: kept !== undefined }).toEqual({
        name,
        labels,
        kept: forwardingDecision(name, labels).forward,
      });
      if (kept !== undefined) expect(kept).toEqual({ __name__: name, ...labels });
    }
  });

  it('refuses what it does not run', () => {
    expect(() => parseAlloyPipeline('prometheus.scrape "a" { targets = [] }')).toThrow(AlloyConfigError);
    expect(() =>
      parseAlloyPipeline(
        'prometheus.scrape "a" {\n targets = [{"__address__" = "x:1"}]\n forward_to = [otelcol.receiver.x.input]\n}',
      ),
    ).toThrow(/no component otelcol.receiver.x.input/);
    expect(() => durationMs('30 seconds')).toThrow(AlloyConfigError);
  });
});
