import { Counter, Registry, Summary, collectDefaultMetrics } from 'prom-client';

/** `/metrics`: the exporter's own metrics (upstream's two families) and the process's. */
export class SelfMetrics {
  readonly registry = new Registry();
  readonly #duration = new Summary({
    name: 'pve_collection_duration_seconds',
    help: 'Duration of collections by the PVE exporter',
    labelNames: ['module'] as const,
    // Upstream's is a Python Summary: a count and a sum, no quantiles.
    percentiles: [],
    registers: [this.registry],
  });
  readonly #errors = new Counter({
    name: 'pve_request_errors_total',
    help: 'Errors in requests to PVE exporter',
    labelNames: ['module'] as const,
    registers: [this.registry],
  });

  /** Every module's series exist from the start at zero, as upstream's do. */
  constructor(modules: Iterable<string>) {
    collectDefaultMetrics({ register: this.registry });
    for (const module of modules) {
      this.#errors.inc({ module }, 0);
      this.#duration.observe({ module }, 0);
    }
    // A summary's series appear with its first observation; reset() zeroes them but keeps them listed.
    this.#duration.reset();
  }

  collected(module: string, seconds: number): void {
    this.#duration.observe({ module }, seconds);
  }

  failed(module: string): void {
    this.#errors.inc({ module });
  }
}
