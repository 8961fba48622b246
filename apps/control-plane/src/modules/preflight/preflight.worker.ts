import type { BaseLogger } from 'pino';

import type { PreflightRepository } from './preflight.repository.js';
import type { PreflightService } from './preflight.service.js';

interface Run {
  /** Another evaluation was asked for while this one ran: what it read may already be old. */
  again: boolean;
  done: Promise<void>;
}

/**
 * Keeps preflight results current: an organisation is re-evaluated whenever something it sells from
 * changes (`request`, called after every successful change through the API and by the order and metrics
 * flows), and every organisation is re-evaluated on an interval, which catches what no request reports
 * (time passing, another replica's changes). Requests for an organisation being evaluated merge into one
 * more run after it, so a burst of changes costs at most two evaluations. Each replica runs its own
 * worker; evaluations are idempotent, so replicas that overlap only repeat work.
 */
export class PreflightWorker {
  readonly #runs = new Map<string, Run>();
  #timer: NodeJS.Timeout | undefined;
  #sweeping: Promise<void> | undefined;
  #stopped = false;

  constructor(
    private readonly deps: {
      readonly preflight: Pick<PreflightService, 'evaluateOrganization'>;
      readonly results: Pick<PreflightRepository, 'organizationsWithPlans'>;
      /** 0 turns the periodic re-evaluation off; requests are still served. */
      readonly intervalSeconds: number;
      readonly logger: Pick<BaseLogger, 'error'>;
    },
  ) {}

  get intervalSeconds(): number {
    return this.deps.intervalSeconds;
  }

  /** Starts the periodic re-evaluation, with a first sweep now. */
  start(): void {
    if (this.deps.intervalSeconds <= 0 || this.#timer !== undefined) return;
    const sweep = () => {
      this.#sweeping ??= this.#sweep().finally(() => (this.#sweeping = undefined));
    };
    this.#timer = setInterval(sweep, this.deps.intervalSeconds * 1000);
    this.#timer.unref();
    sweep();
  }

  /** Re-evaluates the organisation soon; returns at once. */
  request(organizationId: string): void {
    if (this.#stopped) return;
    const running = this.#runs.get(organizationId);
    if (running !== undefined) {
      running.again = true;
      return;
    }
    const run: Run = { again: false, done: Promise.resolve() };
    // #loop yields before its first step, so the run is in the map before anything can remove it.
    run.done = this.#loop(organizationId, run);
    this.#runs.set(organizationId, run);
  }

  /** Resolves once no evaluation of the organisation is running or asked for. */
  async settled(organizationId: string): Promise<void> {
    await this.#runs.get(organizationId)?.done;
  }

  /** Stops the interval and waits for the evaluations in flight. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#sweeping;
    await Promise.all([...this.#runs.values()].map((r) => r.done));
  }

  async #loop(organizationId: string, run: Run): Promise<void> {
    // Let the request that asked for this finish first: its transaction has committed, and the
    // requests of a burst that follow merge into this run.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      do {
        run.again = false;
        await this.#evaluate(organizationId);
      } while (askedAgain(run) && !this.#stopped);
    } finally {
      this.#runs.delete(organizationId);
    }
  }

  async #evaluate(organizationId: string): Promise<void> {
    try {
      await this.deps.preflight.evaluateOrganization(organizationId);
    } catch (e: unknown) {
      this.deps.logger.error({ err: e, organizationId }, 'preflight evaluation failed');
    }
  }

  /** One organisation after another: a sweep never floods the database. */
  async #sweep(): Promise<void> {
    try {
      for (const organizationId of await this.deps.results.organizationsWithPlans()) {
        if (this.#stopped) return;
        this.request(organizationId);
        await this.settled(organizationId);
      }
    } catch (e: unknown) {
      this.deps.logger.error({ err: e }, 'preflight sweep failed');
    }
  }
}

/** Read through a call: a request may have set it while the evaluation was awaited. */
function askedAgain(run: Run): boolean {
  return run.again;
}
