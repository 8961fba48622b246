import { readFileSync, writeFileSync } from 'node:fs';

import { forwardingDecision } from '@noderings/domain';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import {
  renderAlloyConfig,
  renderPrometheusConfig,
  type MetricsForwardingOptions,
} from './metrics-forwarding-config.js';

const OPTIONS: MetricsForwardingOptions = {
  exporter: '127.0.0.1:9221',
  platformEndpoint: 'pve.example.com:8006',
  agentId: '0b8e1f2a-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
  remoteWriteUrl: 'https://api.noderings.example/api/v1/write',
  bearerTokenFile: '/etc/noderings/metrics-token',
};

/** Golden files: `UPDATE_GOLDEN=1 npx vitest run deploy` rewrites them after a deliberate change. */
function golden(name: string, actual: string): void {
  const url = new URL(`golden/${name}`, import.meta.url);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(url, actual);
  expect(actual).toBe(readFileSync(url, 'utf8'));
}

interface RelabelConfig {
  source_labels?: string[];
  separator?: string;
  /** Prometheus' defaults: `(.*)` and `replace`. */
  regex?: string;
  target_label?: string;
  replacement?: string;
  action?: 'keep' | 'drop' | 'replace' | 'labeldrop';
}

/** Prometheus' metric relabelling, for the actions the rendering uses (regexes anchored at both ends). */
function relabel(
  configs: readonly RelabelConfig[],
  input: Record<string, string>,
): Record<string, string> | undefined {
  let labels = { ...input };
  for (const c of configs) {
    const re = new RegExp(`^(?:${c.regex ?? '(.*)'})$`);
    const action = c.action ?? 'replace';
    const value = (c.source_labels ?? []).map((l) => labels[l] ?? '').join(c.separator ?? ';');
    if (action === 'keep' && !re.test(value)) return undefined;
    if (action === 'drop' && re.test(value)) return undefined;
    if (action === 'replace' && re.test(value) && c.target_label !== undefined)
      labels[c.target_label] = c.replacement ?? '';
    if (action === 'labeldrop')
      labels = Object.fromEntries(Object.entries(labels).filter(([k]) => !re.test(k)));
  }
  return labels;
}

describe('the forwarding rules rendered for the agent', () => {
  it('renders the Prometheus configuration', () => {
    golden('prometheus.yml', renderPrometheusConfig(OPTIONS));
  });

  it('renders the Alloy configuration', () => {
    golden('config.alloy', renderAlloyConfig(OPTIONS));
  });

  it('keeps in Prometheus exactly the series the rules forward, and leaves no mark behind', () => {
    const config = parse(renderPrometheusConfig(OPTIONS)) as {
      scrape_configs: { metric_relabel_configs: RelabelConfig[] }[];
      remote_write: { write_relabel_configs: RelabelConfig[] }[];
    };
    const rules = config.scrape_configs[0]?.metric_relabel_configs ?? [];
    // Prometheus' own per-scrape series (`up`, `scrape_*`) skip metric relabelling: the same rules at write.
    expect(config.remote_write[0]?.write_relabel_configs).toEqual(rules);
    const series: [string, Record<string, string>][] = [
      ['pve_up', { id: 'node/pve1' }],
      ['up', {}],
      ['scrape_duration_seconds', {}],
      ['pve_cpu_usage_ratio', { id: 'qemu/1042', name: 'NR-0b8e1f2a-3c4d-4e5f-8a9b-0c1d2e3f4a5b' }],
      ['pve_cpu_usage_ratio', { id: 'qemu/100', name: 'lab' }],
      ['pve_guest_info', { id: 'lxc/101' }],
      ['pve_lock_state', { id: 'qemu/1042', name: 'NR-x' }],
      ['pve_onboot_status', { id: 'qemu/1042', name: 'NR-x' }],
      ['non_nr_pve_disk_size_bytes', { id: 'node/pve1' }],
      ['pve_replication_last_sync_timestamp_seconds', { id: 'qemu/1042', name: 'NR-x' }],
    ];
    for (const [name, labels] of series) {
      const kept = relabel(rules, { __name__: name, ...labels });
      expect({ name, labels, kept: kept !== undefined }).toEqual({
        name,
        labels,
        kept: forwardingDecision(name, labels).forward,
      });
      if (kept !== undefined) expect(Object.keys(kept)).not.toContain('__tmp_nr_guest');
    }
  });

  it('sets instance to the platform endpoint and names the agent, with the credential as a file', () => {
    const config = parse(renderPrometheusConfig(OPTIONS)) as {
      scrape_configs: { relabel_configs: RelabelConfig[]; params: Record<string, string[]> }[];
      remote_write: { authorization: { credentials_file: string } }[];
    };
    const job = config.scrape_configs[0];
    expect(job?.params.target).toEqual(['pve.example.com:8006']);
    expect(relabel(job?.relabel_configs ?? [], { instance: '127.0.0.1:9221' })).toEqual({
      instance: 'pve.example.com:8006',
      agent_id: OPTIONS.agentId,
    });
    expect(config.remote_write[0]?.authorization.credentials_file).toBe('/etc/noderings/metrics-token');
    expect(renderAlloyConfig(OPTIONS)).toContain('bearer_token_file = "/etc/noderings/metrics-token"');
  });
});
