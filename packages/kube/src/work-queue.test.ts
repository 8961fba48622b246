import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReconcileResult } from './reconciler.js';
import { DONE, TerminalError } from './reconciler.js';
import { WorkQueue } from './work-queue.js';

/** A reconcile whose completion the test controls. */
function gate(): { promise: Promise<ReconcileResult>; open: () => void; fail: (e: Error) => void } {
  let open!: () => void;
  let fail!: (e: Error) => void;
  const promise = new Promise<ReconcileResult>((resolve, reject) => {
    open = () => {
      resolve(DONE);
    };
    fail = reject;
  });
  return { promise, open, fail };
}

const generous = { ratePerSecond: 1000, burst: 1000 };

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('WorkQueue', () => {
  it('merges a key added while it is still queued', async () => {
    const seen: string[] = [];
    const queue = new WorkQueue((key) => (seen.push(key), Promise.resolve(DONE)), { rateLimit: generous });
    queue.add('ns/a');
    queue.add('ns/b');
    queue.add('ns/a');
    queue.start();
    await vi.runAllTimersAsync();
    expect(seen).toEqual(['ns/a', 'ns/b']);
    expect(queue.metrics()).toMatchObject({ adds: 2, merged: 1, successes: 2, depth: 0 });
  });

  it('runs a key added during its reconcile once more afterwards, never twice at once', async () => {
    const gates = [gate(), gate()];
    let running = 0;
    let maxRunning = 0;
    let calls = 0;
    const queue = new WorkQueue(
      async () => {
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        const g = gates[calls++];
        try {
          return await (g?.promise ?? DONE);
        } finally {
          running -= 1;
        }
      },
      { workers: 4, rateLimit: generous },
    );
    queue.start();
    queue.add('k');
    await vi.advanceTimersByTimeAsync(0);
    queue.add('k');
    queue.add('k');
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    gates[0]?.open();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(2);
    gates[1]?.open();
    await vi.runAllTimersAsync();
    expect(calls).toBe(2);
    expect(maxRunning).toBe(1);
  });

  it('processes different keys in parallel with several workers', async () => {
    const gates = new Map([
      ['a', gate()],
      ['b', gate()],
    ]);
    const started: string[] = [];
    const queue = new WorkQueue(
      async (key) => {
        started.push(key);
        return (await gates.get(key)?.promise) ?? DONE;
      },
      { workers: 2, rateLimit: generous },
    );
    queue.start();
    queue.add('a');
    queue.add('b');
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual(['a', 'b']);
    expect(queue.metrics().inFlight).toBe(2);
    for (const g of gates.values()) g.open();
    await vi.runAllTimersAsync();
  });

  it('retries a failing key with growing, jittered delays and resets after a success', async () => {
    const attempts: number[] = [];
    let failuresLeft = 4;
    const queue = new WorkQueue(
      () => {
        attempts.push(Date.now());
        if (failuresLeft-- > 0) return Promise.reject(new Error('Proxmox unreachable'));
        return Promise.resolve(DONE);
      },
      { backoff: { baseMs: 100, maxMs: 10_000, jitter: 0.5 }, random: () => 0.5, rateLimit: generous },
    );
    queue.start();
    queue.add('k');
    await vi.runAllTimersAsync();
    const gaps = attempts.slice(1).map((t, i) => t - (attempts[i] ?? 0));
    // ceiling 100, 200, 400, 800 with half of the jitter range taken off (random() = 0.5, jitter 0.5).
    expect(gaps).toEqual([75, 150, 300, 600]);
    expect(queue.failureCount('k')).toBe(0);
    expect(queue.metrics()).toMatchObject({ retries: 4, successes: 1 });
  });

  it('does not retry a TerminalError and reports it', async () => {
    const reported: string[] = [];
    let calls = 0;
    const queue = new WorkQueue(
      () => {
        calls += 1;
        return Promise.reject(new TerminalError('NameMismatch', 'VMID 1042 is not NR-…'));
      },
      { onTerminalError: (key, e) => void reported.push(`${key}:${e.reason}`), rateLimit: generous },
    );
    queue.start();
    queue.add('k');
    await vi.runAllTimersAsync();
    expect(calls).toBe(1);
    expect(reported).toEqual(['k:NameMismatch']);
    expect(queue.metrics()).toMatchObject({ terminalFailures: 1, retries: 0 });
  });

  it('comes back after requeueAfter', async () => {
    const runs: number[] = [];
    const queue = new WorkQueue(
      () => {
        runs.push(Date.now());
        return Promise.resolve(runs.length === 1 ? { requeueAfter: 5000 } : DONE);
      },
      { rateLimit: generous },
    );
    queue.start();
    const t0 = Date.now();
    queue.add('k');
    await vi.advanceTimersByTimeAsync(4999);
    expect(runs).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual([t0, t0 + 5000]);
    expect(queue.metrics().requeues).toBe(1);
  });

  it('starts no more reconciles than the token bucket allows', async () => {
    let calls = 0;
    const queue = new WorkQueue(() => (calls++, Promise.resolve(DONE)), {
      workers: 10,
      rateLimit: { ratePerSecond: 10, burst: 2 },
    });
    queue.start();
    for (let i = 0; i < 6; i++) queue.add(`k${i}`);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toBe(3);
    await vi.advanceTimersByTimeAsync(300);
    expect(calls).toBe(6);
  });

  it('on shutdown drops queued keys, refuses new ones and lets in-flight work finish', async () => {
    const g = gate();
    const seen: string[] = [];
    const queue = new WorkQueue(
      async (key) => {
        seen.push(key);
        return key === 'a' ? g.promise : DONE;
      },
      { rateLimit: generous },
    );
    queue.start();
    queue.add('a');
    queue.add('b');
    await vi.advanceTimersByTimeAsync(0);
    const stopping = queue.shutdown(10_000);
    queue.add('c');
    g.open();
    await expect(stopping).resolves.toEqual({ abandoned: [] });
    expect(seen).toEqual(['a']);
  });

  it('abandons reconciles still running at the deadline, aborting their signals', async () => {
    let aborted = false;
    const queue = new WorkQueue(
      (_key, signal) =>
        new Promise<ReconcileResult>(() => {
          signal.addEventListener('abort', () => {
            aborted = true;
          });
        }),
      { rateLimit: generous },
    );
    queue.start();
    queue.add('stuck');
    await vi.advanceTimersByTimeAsync(0);
    const stopping = queue.shutdown(1000);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(stopping).resolves.toEqual({ abandoned: ['stuck'] });
    expect(aborted).toBe(true);
  });

  it('records reconcile durations', async () => {
    const queue = new WorkQueue(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        return DONE;
      },
      { rateLimit: generous },
    );
    queue.start();
    queue.add('k');
    await vi.runAllTimersAsync();
    const { durations } = queue.metrics();
    expect(durations.count).toBe(1);
    expect(durations.sum).toBe(30);
  });
});
