import type { SecretBox } from '../crypto/secret-box.js';
import type { Db } from '../db/database.js';

/** What every module's `register` may build on: the database, the clock and the key sealing secrets. */
export interface ModuleContext {
  readonly db: Db;
  readonly now: () => Date;
  readonly secretBox: SecretBox;
}

/** A loop a module runs beside its routes: started once the server listens, stopped after it closes. */
export interface Worker {
  /** How logs and start-up failures name it. */
  readonly name: string;
  start(): void;
  /** Resolves once the loop has finished what it was doing. */
  stop(): Promise<void>;
}

/** Names a worker object for the server's list of workers. */
export function worker(name: string, loop: { start(): void; stop(): Promise<void> }): Worker {
  return {
    name,
    start: () => {
      loop.start();
    },
    stop: () => loop.stop(),
  };
}

/**
 * A notification one module sends and another module, registered after it, receives: the way two modules
 * that need each other (a VM change wakes the dispatcher; the dispatcher places VMs again) are wired
 * without either referring to the other before it exists. Sent before a receiver listens, it is dropped:
 * nothing sends before the server starts.
 */
export class Signal<A extends unknown[] = []> {
  #receiver: ((...args: A) => void) | undefined;

  /** Tells the receiver, if there is one yet. */
  readonly send = (...args: A): void => {
    this.#receiver?.(...args);
  };

  /** Makes `receiver` the one that is told; a signal has one receiver. */
  receive(receiver: (...args: A) => void): void {
    if (this.#receiver !== undefined) throw new Error('this signal already has a receiver');
    this.#receiver = receiver;
  }
}
