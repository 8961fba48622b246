import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { MAX_VMID, MIN_VMID } from './node-settings.js';
import { nextVmid } from './vmid.js';

describe('the next VMID', () => {
  it('is the seed when nothing holds it', () => {
    expect(nextVmid(1000, [])).toBe(1000);
    expect(nextVmid(1000, [100, 999, 1001])).toBe(1000);
  });

  it('skips our VMIDs and foreign guests alike, in any order, and fills gaps first', () => {
    expect(nextVmid(1000, [1002, 1000, 9000, 1001, 1001, 1004])).toBe(1003);
    expect(nextVmid(100, [100, 101, 102])).toBe(103);
  });

  it('answers undefined once every VMID up to the Proxmox maximum is taken', () => {
    const seed = MAX_VMID - 2;
    expect(nextVmid(seed, [MAX_VMID - 2, MAX_VMID - 1])).toBe(MAX_VMID);
    expect(nextVmid(seed, [MAX_VMID, MAX_VMID - 2, MAX_VMID - 1])).toBeUndefined();
  });

  it('refuses a seed outside the Proxmox range', () => {
    expect(() => nextVmid(99, [])).toThrow(/vmidSeed: must be a Proxmox VMID from 100 to 999999999/);
    expect(() => nextVmid(1000.5, [])).toThrow(/vmidSeed/);
  });

  it('agrees with a brute-force search', () => {
    const seeds = fc.oneof(
      fc.integer({ min: MIN_VMID, max: 200 }),
      fc.integer({ min: MAX_VMID - 50, max: MAX_VMID }),
    );
    fc.assert(
      fc.property(
        seeds,
        fc.array(
          fc.oneof(fc.integer({ min: 90, max: 260 }), fc.integer({ min: MAX_VMID - 60, max: MAX_VMID })),
          {
            maxLength: 80,
          },
        ),
        (seed, taken) => {
          const held = new Set(taken);
          let expected: number | undefined = seed;
          while (expected <= MAX_VMID && held.has(expected)) expected++;
          expect(nextVmid(seed, taken)).toBe(expected > MAX_VMID ? undefined : expected);
        },
      ),
    );
  });

  it('hands out distinct VMIDs until the range runs out', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: MAX_VMID - 30, max: MAX_VMID }),
        fc.array(fc.integer({ min: MAX_VMID - 40, max: MAX_VMID }), { maxLength: 20 }),
        (seed, initial) => {
          const taken = [...initial];
          const free = MAX_VMID - seed + 1 - new Set(initial.filter((vmid) => vmid >= seed)).size;
          const handedOut = new Set<number>();
          for (let next = nextVmid(seed, taken); next !== undefined; next = nextVmid(seed, taken)) {
            expect(next).toBeGreaterThanOrEqual(seed);
            expect(taken.includes(next)).toBe(false);
            handedOut.add(next);
            taken.push(next);
          }
          expect(handedOut.size).toBe(free);
        },
      ),
    );
  });
});
