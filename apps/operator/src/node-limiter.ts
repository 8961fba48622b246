/** At most `perNode` calls at once to each Proxmox node; the others wait their turn in order. */
export class NodeLimiter {
  readonly #active = new Map<string, number>();
  readonly #waiting = new Map<string, (() => void)[]>();

  constructor(readonly perNode: number) {
    if (!Number.isInteger(perNode) || perNode < 1) throw new RangeError('perNode must be a positive integer');
  }

  async run<T>(node: string, task: () => Promise<T>): Promise<T> {
    await this.#acquire(node);
    try {
      return await task();
    } finally {
      this.#release(node);
    }
  }

  /** Calls running now against `node`. */
  active(node: string): number {
    return this.#active.get(node) ?? 0;
  }

  async #acquire(node: string): Promise<void> {
    const active = this.active(node);
    if (active < this.perNode) {
      this.#active.set(node, active + 1);
      return;
    }
    await new Promise<void>((resolve) => {
      const queue = this.#waiting.get(node) ?? [];
      queue.push(resolve);
      this.#waiting.set(node, queue);
    });
  }

  #release(node: string): void {
    const next = this.#waiting.get(node)?.shift();
    // The slot passes straight to the next waiter, so the count stays the same.
    if (next !== undefined) next();
    else this.#active.set(node, this.active(node) - 1);
  }
}
