import { captureLogs } from '@noderings/log/log-capture';
import { describe, expect, test } from 'vitest';

import { type Delivery, MessageQueue } from './message-queue.js';

const bytes = (n: number): Uint8Array => new Uint8Array(n);

describe('MessageQueue', () => {
  test('hands out heartbeats first, then the rest in order', () => {
    const queue = new MessageQueue({ maxBytes: 1_000, log: captureLogs().logger });
    void queue.push('metrics', 'm1', bytes(10));
    void queue.push('logs', 'l1', bytes(10));
    void queue.push('heartbeat', 'h1', bytes(10));
    expect([queue.take()?.id, queue.take()?.id, queue.take()?.id, queue.take()]).toEqual([
      'h1',
      'm1',
      'l1',
      undefined,
    ]);
  });

  test('when full drops the oldest metrics first, then logs, never a heartbeat for them; counts and warns', async () => {
    const { logger: log, lines } = captureLogs();
    const queue = new MessageQueue({ maxBytes: 100, log });
    const outcomes = new Map<string, Delivery>();
    const push = (kind: 'metrics' | 'logs' | 'heartbeat', id: string, size: number): void => {
      void queue.push(kind, id, bytes(size)).then((d) => outcomes.set(id, d));
    };
    push('heartbeat', 'h1', 10);
    push('logs', 'l1', 30);
    push('metrics', 'm1', 30);
    push('metrics', 'm2', 30);
    push('metrics', 'm3', 30);
    push('metrics', 'm4', 60);
    await Promise.resolve();
    expect(outcomes).toEqual(
      new Map([
        ['m1', 'dropped'],
        ['m2', 'dropped'],
        ['m3', 'dropped'],
      ]),
    );
    push('logs', 'l2', 60);
    await Promise.resolve();
    expect(outcomes.get('m4')).toBe('dropped');
    expect(queue.droppedCounts()).toEqual({ heartbeat: 0, metrics: 4, logs: 0 });
    const left: string[] = [];
    for (let m = queue.take(); m !== undefined; m = queue.take()) left.push(m.id);
    expect(left).toEqual(['h1', 'l1', 'l2']);
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
  });

  test('keeps room for log tailing to pause before anything is dropped', () => {
    const queue = new MessageQueue({ maxBytes: 100, log: captureLogs().logger });
    void queue.push('logs', 'l1', bytes(40));
    expect(queue.hasRoomForLogs()).toBe(true);
    void queue.push('logs', 'l2', bytes(20));
    expect(queue.hasRoomForLogs()).toBe(false);
  });
});
