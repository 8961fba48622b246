/** How Prometheus should read a family's samples; info series are gauges of value 1, as upstream serves them. */
export type MetricType = 'gauge' | 'counter';

export interface MetricSample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** One family of the exposition: its samples keep the order in which they were added. */
export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly type: MetricType;
  readonly samples: MetricSample[];
}

export function gauge(name: string, help: string): MetricFamily {
  return { name, help, type: 'gauge', samples: [] };
}

export function counter(name: string, help: string): MetricFamily {
  return { name, help, type: 'counter', samples: [] };
}
