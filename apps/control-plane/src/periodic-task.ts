/**
 * Runs a pass every `everyMs`, one pass at a time (a tick that finds the last pass still running is
 * skipped), on an unreferenced timer; `stop` waits for the pass in flight. The pass reports its own
 * errors: a rejection here would be unhandled.
 */
export class PeriodicTask {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly everyMs: number,
  ) {}

  start(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => {
      this.#running ??= this.pass().finally(() => (this.#running = undefined));
    }, this.everyMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }
}
