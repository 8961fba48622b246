/**
 * Bytes received but not yet parsed. Network reads split and merge messages arbitrarily, so parsers
 * check `length` before taking a whole message; chunks are kept as they came and copied only when a
 * read spans several of them.
 */
export class ByteQueue {
  private chunks: Buffer[] = [];
  /** Bytes of chunks[0] already consumed. */
  private offset = 0;
  private total = 0;

  get length(): number {
    return this.total;
  }

  push(chunk: Buffer): void {
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.total += chunk.length;
    }
  }

  /** The next `count` bytes, left in the queue. */
  peek(count: number): Buffer {
    if (count > this.total) {
      throw new RangeError(`only ${this.total} bytes queued, ${count} wanted`);
    }
    const first = this.chunks[0];
    if (first !== undefined && first.length - this.offset >= count) {
      return first.subarray(this.offset, this.offset + count);
    }
    const result = Buffer.allocUnsafe(count);
    let copied = 0;
    let offset = this.offset;
    for (const chunk of this.chunks) {
      copied += chunk.copy(result, copied, offset, Math.min(chunk.length, offset + count - copied));
      offset = 0;
      if (copied === count) {
        break;
      }
    }
    return result;
  }

  /** Removes and returns the next `count` bytes. */
  take(count: number): Buffer {
    const bytes = this.peek(count);
    this.discard(count);
    return bytes;
  }

  /** Drops up to `count` bytes; returns how many were dropped. */
  discard(count: number): number {
    const dropped = Math.min(count, this.total);
    let remaining = dropped;
    while (remaining > 0) {
      const first = this.chunks[0];
      if (first === undefined) {
        break;
      }
      const available = first.length - this.offset;
      if (available > remaining) {
        this.offset += remaining;
        break;
      }
      remaining -= available;
      this.chunks.shift();
      this.offset = 0;
    }
    this.total -= dropped;
    return dropped;
  }
}
