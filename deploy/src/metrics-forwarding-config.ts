import { forwardingPatterns } from '@noderings/domain';
import { stringify } from 'yaml';

/** Where the agent scrapes and where it sends what it keeps. */
export interface MetricsForwardingOptions {
  /** The pve-exporter, `host:port`. */
  readonly exporter: string;
  /** The platform's Proxmox endpoint, `host:port`: the exporter's `target` and every series' `instance`. */
  readonly platformEndpoint: string;
  readonly agentId: string;
  /** The control plane's `…/api/v1/write`. */
  readonly remoteWriteUrl: string;
  /** A file holding the agent's metrics write credential (never the credential itself). */
  readonly bearerTokenFile: string;
  /** Default 30s. */
  readonly scrapeInterval?: string;
}

/**
 * Alloy can also read the credential from an environment variable (`sys.env`), which is how the agent
 * stack gives it the `metrics-write-credential` Secret.
 */
export type AlloyForwardingOptions = Omit<MetricsForwardingOptions, 'bearerTokenFile'> &
  ({ readonly bearerTokenFile: string } | { readonly bearerTokenEnv: string });

const MARK = '__tmp_nr_guest';

/**
 * The seed's keep/drop table as relabel steps, in the order both renderings apply them: keep only
 * forwarded families; mark guests named `NR-…`; drop guests without the mark (RE2 has no negative
 * lookahead, hence the mark); drop guests' HA and lock state; remove the mark.
 */
function relabelSteps() {
  const p = forwardingPatterns();
  return [
    { sourceLabels: ['__name__'], regex: p.forwardedNames, action: 'keep' },
    {
      sourceLabels: ['id', 'name'],
      separator: ';',
      regex: `${p.guestId};${p.nrGuestName}`,
      targetLabel: MARK,
      replacement: '1',
      action: 'replace',
    },
    { sourceLabels: ['id', MARK], separator: ';', regex: `${p.guestId};`, action: 'drop' },
    {
      sourceLabels: ['__name__', 'id'],
      separator: ';',
      regex: `(${p.guestDroppedNames});${p.guestId}`,
      action: 'drop',
    },
    { regex: MARK, action: 'labeldrop' },
  ] as const;
}

function prometheusRelabelConfigs() {
  return relabelSteps().map((s) => ({
    ...('sourceLabels' in s && { source_labels: s.sourceLabels }),
    ...('separator' in s && { separator: s.separator }),
    regex: s.regex,
    ...('targetLabel' in s && { target_label: s.targetLabel, replacement: s.replacement }),
    action: s.action,
  }));
}

/** Prometheus (agent mode) `scrape_configs` + `metric_relabel_configs` + `remote_write` (with the rules again). */
export function renderPrometheusConfig(o: MetricsForwardingOptions): string {
  const interval = o.scrapeInterval ?? '30s';
  const config = {
    global: { scrape_interval: interval },
    scrape_configs: [
      {
        job_name: 'pve',
        metrics_path: '/pve',
        params: { target: [o.platformEndpoint], cluster: ['1'], node: ['1'] },
        static_configs: [{ targets: [o.exporter] }],
        relabel_configs: [
          { target_label: 'instance', replacement: o.platformEndpoint },
          { target_label: 'agent_id', replacement: o.agentId },
        ],
        metric_relabel_configs: prometheusRelabelConfigs(),
      },
    ],
    remote_write: [
      {
        url: o.remoteWriteUrl,
        authorization: { type: 'Bearer', credentials_file: o.bearerTokenFile },
        // The series Prometheus adds to every scrape (`up`, `scrape_*`) skip metric_relabel_configs; the
        // same rules again at write keep them home too.
        write_relabel_configs: prometheusRelabelConfigs(),
      },
    ],
  };
  return stringify(config, { lineWidth: 0 });
}

/** An Alloy (River) string literal. */
function river(value: string): string {
  return JSON.stringify(value);
}

/** The Alloy configuration shipped with the agent stack: scrape, relabel, remote-write. */
export function renderAlloyConfig(o: AlloyForwardingOptions): string {
  const bearer =
    'bearerTokenEnv' in o
      ? `bearer_token = sys.env(${river(o.bearerTokenEnv)})`
      : `bearer_token_file = ${river(o.bearerTokenFile)}`;
  const rules = relabelSteps()
    .map((s) => {
      const lines = [
        ...('sourceLabels' in s ? [`source_labels = [${s.sourceLabels.map(river).join(', ')}]`] : []),
        ...('separator' in s ? [`separator     = ${river(s.separator)}`] : []),
        `regex         = ${river(s.regex)}`,
        ...('targetLabel' in s
          ? [`target_label  = ${river(s.targetLabel)}`, `replacement   = ${river(s.replacement)}`]
          : []),
        `action        = ${river(s.action)}`,
      ];
      return `  rule {\n${lines.map((l) => `    ${l}`).join('\n')}\n  }`;
    })
    .join('\n');
  return `// Generated from the forwarding rules (packages/domain/src/metric-forwarding.ts): do not edit.
prometheus.scrape "pve" {
  targets = [{
    "__address__" = ${river(o.exporter)},
    "instance"    = ${river(o.platformEndpoint)},
    "agent_id"    = ${river(o.agentId)},
  }]
  metrics_path    = "/pve"
  params          = { "target" = [${river(o.platformEndpoint)}], "cluster" = ["1"], "node" = ["1"] }
  scrape_interval = ${river(o.scrapeInterval ?? '30s')}
  forward_to      = [prometheus.relabel.nr_only.receiver]
}

prometheus.relabel "nr_only" {
${rules}
  forward_to = [prometheus.remote_write.noderings.receiver]
}

prometheus.remote_write "noderings" {
  endpoint {
    url = ${river(o.remoteWriteUrl)}
    ${bearer}
  }
}
`;
}
