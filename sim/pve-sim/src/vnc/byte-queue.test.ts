import { describe, expect, it } from 'vitest';

import { ByteQueue } from './byte-queue.js';

describe('ByteQueue', () => {
  it('reads across chunk boundaries in the order bytes arrived', () => {
    const queue = new ByteQueue();
    queue.push(Buffer.from([1, 2]));
    queue.push(Buffer.alloc(0));
    queue.push(Buffer.from([3]));
    queue.push(Buffer.from([4, 5, 6]));
    expect(queue.length).toBe(6);
    expect([...queue.peek(4)]).toEqual([1, 2, 3, 4]);
    expect([...queue.take(1)]).toEqual([1]);
    expect([...queue.take(3)]).toEqual([2, 3, 4]);
    expect(queue.discard(10)).toBe(2);
    expect(queue.length).toBe(0);
    expect(() => queue.take(1)).toThrow(RangeError);
  });
});
