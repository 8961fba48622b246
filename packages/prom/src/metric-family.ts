import type { MetricType } from './exposition-parser.js';

export interface MetricSample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** One family to render: its samples keep the order in which they were added. */
export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  /** How Prometheus should read the samples; info series are gauges of value 1, as upstream serves them. */
  readonly type: Extract<MetricType, 'gauge' | 'counter'>;
  readonly samples: MetricSample[];
}

export function gauge(name: string, help: string): MetricFamily {
  return { name, help, type: 'gauge', samples: [] };
}

export function counter(name: string, help: string): MetricFamily {
  return { name, help, type: 'counter', samples: [] };
}
