/**
 * What one reconcile asks of the queue: `done` forgets the key's failures; `requeueAfter` looks again
 * after that many milliseconds (polling a Proxmox task, an expiry). Throwing an Error retries with
 * exponential backoff; throwing a TerminalError records it and does not retry.
 */
export type ReconcileResult = { done: true } | { requeueAfter: number };

/**
 * A level-based reconciler. It gets a key (`namespace/name`), re-reads current state itself, and must be
 * safe to run again at any point: it may be interrupted (`signal`) and retried, and it never runs twice
 * at once for the same key.
 */
export interface Reconciler {
  reconcile(key: string, signal: AbortSignal): Promise<ReconcileResult>;
}

/**
 * A failure that retrying cannot fix (an invalid spec, a guest name that is not ours). `reason` is the
 * CamelCase condition reason it is recorded under.
 */
export class TerminalError extends Error {
  override readonly name = 'TerminalError';

  constructor(
    readonly reason: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    if (!/^[A-Z][A-Za-z0-9]*$/.test(reason))
      throw new TypeError(`Condition reasons are CamelCase: ${reason}`);
  }
}

export const DONE: ReconcileResult = Object.freeze({ done: true });
