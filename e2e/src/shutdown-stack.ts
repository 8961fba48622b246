/** What was started, closed in reverse order: the last thing started may depend on the earlier ones. */
export class ShutdownStack {
  readonly #closers: (() => Promise<void>)[] = [];
  #closing: Promise<void> | undefined;

  push(close: () => Promise<void>): void {
    this.#closers.push(close);
  }

  /** Runs every closer once, even after one fails, then throws the first failure. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const failures: unknown[] = [];
      for (const close of [...this.#closers].reverse()) {
        try {
          await close();
        } catch (e: unknown) {
          failures.push(e);
        }
      }
      if (failures.length > 0) throw failures[0];
    })();
    return this.#closing;
  }
}
