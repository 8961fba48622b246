import { Counter, Histogram, Registry } from 'prom-client';

import type { ReconcileResult, Reconciler } from '@noderings/kube';
import { TerminalError } from '@noderings/kube';

/** The operator's Prometheus metrics, in a registry of its own (no global default registry). */
export class OperatorMetrics {
  readonly registry = new Registry();
  readonly #reconciles = new Counter({
    name: 'noderings_operator_reconciles_total',
    help: 'Reconciles by controller and result (done, requeue, error, terminal).',
    labelNames: ['controller', 'result'] as const,
    registers: [this.registry],
  });
  readonly #durations = new Histogram({
    name: 'noderings_operator_reconcile_duration_seconds',
    help: 'Reconcile durations by controller.',
    labelNames: ['controller'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [this.registry],
  });
  readonly #proxmoxCalls = new Counter({
    name: 'noderings_operator_proxmox_calls_total',
    help: 'Proxmox API calls by instance, client method (endpoint) and status (ok, or the HTTP status or error code).',
    labelNames: ['instance', 'endpoint', 'status'] as const,
    registers: [this.registry],
  });

  /** Counts and times every reconcile of `reconciler`. */
  instrument(controller: string, reconciler: Reconciler): Reconciler {
    return {
      reconcile: async (key, signal): Promise<ReconcileResult> => {
        const end = this.#durations.startTimer({ controller });
        try {
          const result = await reconciler.reconcile(key, signal);
          this.#reconciles.inc({ controller, result: 'done' in result ? 'done' : 'requeue' });
          return result;
        } catch (e: unknown) {
          this.#reconciles.inc({ controller, result: e instanceof TerminalError ? 'terminal' : 'error' });
          throw e;
        } finally {
          end();
        }
      },
    };
  }

  proxmoxCall(instance: string, endpoint: string, status: string): void {
    this.#proxmoxCalls.inc({ instance, endpoint, status });
  }
}
