/**
 * Work the simulated controllers (garbage collector, namespace and CRD lifecycle) do after a change,
 * on a later turn of the event loop as kube's controllers do, so that a write never nests inside
 * another write's notification. Jobs with the same key run once per turn.
 */
export class ControllerQueue {
  private readonly jobs = new Map<string, () => void>();
  private scheduled: NodeJS.Immediate | undefined;
  private closed = false;

  add(key: string, job: () => void): void {
    if (this.closed) return;
    this.jobs.set(key, job);
    this.scheduled ??= setImmediate(() => {
      this.run();
    });
  }

  close(): void {
    this.closed = true;
    if (this.scheduled) clearImmediate(this.scheduled);
    this.jobs.clear();
  }

  private run(): void {
    this.scheduled = undefined;
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    for (const job of jobs) {
      try {
        job();
      } catch {
        // A job fails only when its object changed under it; the change that did so queues it again.
      }
    }
  }
}
