import { describe, expect, it } from 'vitest';

import { NodeLimiter } from './node-limiter.js';

/** A promise the test settles when it chooses. */
function gate(): { promise: Promise<void>; finish: () => void; fail: (e: Error) => void } {
  let finish: () => void = () => undefined;
  let fail: (e: Error) => void = () => undefined;
  const promise = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { promise, finish, fail };
}

/** Lets queued promise callbacks run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('NodeLimiter', () => {
  it('runs at most perNode tasks at once on a node, the rest in order as slots free', async () => {
    const limiter = new NodeLimiter(2);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    let peak = 0;
    const runs = gates.map((g, i) =>
      limiter.run('pve1', async () => {
        started.push(i);
        peak = Math.max(peak, limiter.active('pve1'));
        await g.promise;
        return i;
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    expect(limiter.active('pve1')).toBe(2);

    gates[1]?.finish();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    expect(limiter.active('pve1')).toBe(2);

    for (const g of gates) g.finish();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(peak).toBe(2);
    expect(limiter.active('pve1')).toBe(0);
  });

  it('keeps nodes independent: a full node does not hold up another', async () => {
    const limiter = new NodeLimiter(1);
    const busy = gate();
    const blocking = limiter.run('pve1', () => busy.promise);
    const queued = limiter.run('pve1', () => Promise.resolve('pve1 later'));
    expect(await limiter.run('pve2', () => Promise.resolve('pve2 now'))).toBe('pve2 now');
    expect(limiter.active('pve1')).toBe(1);
    expect(limiter.active('pve2')).toBe(0);
    busy.finish();
    await blocking;
    expect(await queued).toBe('pve1 later');
  });

  it('releases the slot when a task fails, and passes the error on', async () => {
    const limiter = new NodeLimiter(1);
    const failing = gate();
    const first = limiter.run('pve1', () => failing.promise);
    const second = limiter.run('pve1', () => Promise.resolve('ran'));
    failing.fail(new Error('boom'));
    await expect(first).rejects.toThrow('boom');
    expect(await second).toBe('ran');
    expect(limiter.active('pve1')).toBe(0);
  });

  it('releases the slot when a task throws before returning a promise', async () => {
    const limiter = new NodeLimiter(1);
    await expect(
      limiter.run('pve1', () => {
        throw new Error('sync boom');
      }),
    ).rejects.toThrow('sync boom');
    expect(await limiter.run('pve1', () => Promise.resolve(1))).toBe(1);
    expect(limiter.active('pve1')).toBe(0);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses %s slots per node', (perNode) => {
    expect(() => new NodeLimiter(perNode)).toThrow(RangeError);
  });
});
