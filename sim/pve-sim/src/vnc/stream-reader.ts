import type { Duplex } from 'node:stream';

import { ByteQueue } from './byte-queue.js';

interface PendingRead {
  count: number;
  resolve: (bytes: Buffer) => void;
  reject: (error: Error) => void;
}

/** Reads exact byte counts from a stream as promises, for code that parses a protocol step by step. */
export class StreamReader {
  private readonly queue = new ByteQueue();
  private pending: PendingRead | undefined;
  private failure: Error | undefined;

  constructor(stream: Duplex) {
    stream.on('data', (chunk: Buffer) => {
      this.queue.push(chunk);
      this.settle();
    });
    stream.on('end', () => {
      this.fail(new Error('the connection was closed'));
    });
    stream.on('close', () => {
      this.fail(new Error('the connection was closed'));
    });
    stream.on('error', (e: Error) => {
      this.fail(e);
    });
  }

  /** The next `count` bytes; rejects if the stream ends first. One read at a time. */
  read(count: number): Promise<Buffer> {
    if (this.pending !== undefined) {
      return Promise.reject(new Error('a read is already waiting'));
    }
    return new Promise((resolve, reject) => {
      this.pending = { count, resolve, reject };
      this.settle();
    });
  }

  async readUint8(): Promise<number> {
    return (await this.read(1)).readUInt8(0);
  }

  async readUint32(): Promise<number> {
    return (await this.read(4)).readUInt32BE(0);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.settle();
  }

  private settle(): void {
    const pending = this.pending;
    if (pending === undefined) {
      return;
    }
    if (this.queue.length >= pending.count) {
      this.pending = undefined;
      pending.resolve(this.queue.take(pending.count));
    } else if (this.failure !== undefined) {
      this.pending = undefined;
      pending.reject(this.failure);
    }
  }
}
