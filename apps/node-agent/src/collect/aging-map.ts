interface AgingEntry<V> {
  value: V;
  seenRound: number;
}

/**
 * A map that forgets entries not used for some rounds in a row: bounded state for pods and containers, which
 * disappear without notice. A round is one tick in which the source that reports the keys answered, so a
 * failing source never empties the state it will need again.
 */
export class AgingMap<V> {
  private readonly entries = new Map<string, AgingEntry<V>>();
  private round = 0;

  constructor(private readonly idleRoundsBeforeForgetting: number) {}

  /** Reads without counting as a use. */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: string, value: V): void {
    const entry = this.entries.get(key);
    if (entry === undefined) this.entries.set(key, { value, seenRound: this.round });
    else {
      entry.value = value;
      entry.seenRound = this.round;
    }
  }

  /** The entry, created if missing, counted as used this round. */
  use(key: string, create: () => V): V {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      entry.seenRound = this.round;
      return entry.value;
    }
    const value = create();
    this.entries.set(key, { value, seenRound: this.round });
    return value;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Ends the round, forgetting entries unused in this one and the ones before it, up to the limit. */
  endRound(): void {
    for (const [key, entry] of this.entries) {
      if (this.round - entry.seenRound >= this.idleRoundsBeforeForgetting) this.entries.delete(key);
    }
    this.round++;
  }
}
