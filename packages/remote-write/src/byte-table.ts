/**
 * Values already made from byte ranges of one buffer, found again by their bytes. In a remote-write
 * request the same labels come back series after series (`job`, `instance`, a node, a guest's `id` and
 * `name` on each of its families), and finding one costs a fraction of decoding it again. Only short ranges
 * are kept; on a hash collision the value is made and not kept.
 */
const MAX_CACHED_BYTES = 128;

interface Entry<T> {
  readonly start: number;
  readonly end: number;
  readonly value: T;
}

export class ByteTable<T> {
  private readonly entries = new Map<number, Entry<T>>();

  constructor(private readonly bytes: Uint8Array) {}

  /**
   * The value of `bytes[start, end)`: from the table, or from `make`, which is called only on a miss and
   * may throw to refuse the bytes.
   */
  get(start: number, end: number, make: (start: number, end: number) => T): T {
    if (end - start > MAX_CACHED_BYTES) return make(start, end);
    const bytes = this.bytes;
    // FNV-1a, 32-bit.
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ (bytes[i] ?? 0), 0x01000193);
    const entry = this.entries.get(hash);
    if (entry !== undefined && this.same(entry, start, end)) return entry.value;
    const value = make(start, end);
    if (entry === undefined) this.entries.set(hash, { start, end, value });
    return value;
  }

  private same(entry: Entry<T>, start: number, end: number): boolean {
    if (entry.end - entry.start !== end - start) return false;
    const bytes = this.bytes;
    for (let i = start, j = entry.start; i < end; i++, j++) if (bytes[i] !== bytes[j]) return false;
    return true;
  }
}
