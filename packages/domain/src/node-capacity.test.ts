import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  CAPACITY_RESOURCES,
  nodeCapacityFit,
  requestedAmounts,
  sellableAmount,
  type CapacityFit,
  type NodeCapacityState,
  type ResourceAmounts,
} from './node-capacity.js';
import { MAX_OVERALLOCATE_PERCENT, MIN_OVERALLOCATE_PERCENT, NODE_COMPUTE_TYPES } from './node-settings.js';

const GIB = 1024n ** 3n;
const NONE: ResourceAmounts = { cpu: 0n, memory: 0n, disk: 0n };

function node(overrides: Partial<NodeCapacityState> = {}): NodeCapacityState {
  return {
    computeType: 'NODE_COMPUTE_TYPE_SHARED',
    physical: { cpu: 8n, memory: 32n * GIB, disk: 500n * GIB },
    usedByOthers: NONE,
    sold: NONE,
    overallocatePercent: { cpu: 100, memory: 100, disk: 100 },
    ...overrides,
  };
}

function problems(fit: CapacityFit): string[] {
  return fit.fits ? [] : fit.shortfalls.map((s) => `${s.resource} ${s.problem}`);
}

const amounts = (max: bigint): fc.Arbitrary<ResourceAmounts> =>
  fc.record({
    cpu: fc.bigInt({ min: 0n, max: 512n }),
    memory: fc.bigInt({ min: 0n, max }),
    disk: fc.bigInt({ min: 0n, max }),
  });
const percents = fc.record({
  cpu: fc.integer({ min: MIN_OVERALLOCATE_PERCENT, max: MAX_OVERALLOCATE_PERCENT }),
  memory: fc.integer({ min: MIN_OVERALLOCATE_PERCENT, max: MAX_OVERALLOCATE_PERCENT }),
  disk: fc.integer({ min: MIN_OVERALLOCATE_PERCENT, max: MAX_OVERALLOCATE_PERCENT }),
});
/**
 * Up to 2^60 bytes (an exabyte): far past where a double stops counting single bytes. What is sold is a
 * share of what is sellable (from none to a little past all of it), so that both answers are common.
 */
const states: fc.Arbitrary<NodeCapacityState> = fc
  .record({
    computeType: fc.constantFrom(...NODE_COMPUTE_TYPES),
    physical: amounts(2n ** 60n),
    usedByOthers: amounts(2n ** 58n),
    overallocatePercent: percents,
    soldPerMille: fc.record({
      cpu: fc.bigInt({ min: 0n, max: 1100n }),
      memory: fc.bigInt({ min: 0n, max: 1100n }),
      disk: fc.bigInt({ min: 0n, max: 1100n }),
    }),
  })
  .map(({ soldPerMille, ...rest }) => {
    const empty = { ...rest, sold: NONE };
    const soldOf = (r: (typeof CAPACITY_RESOURCES)[number]) =>
      (sellableAmount(empty, r) * soldPerMille[r]) / 1000n;
    return { ...empty, sold: { cpu: soldOf('cpu'), memory: soldOf('memory'), disk: soldOf('disk') } };
  });
const requests = fc.record({
  cpu: fc.bigInt({ min: 1n, max: 16n }),
  memory: fc.bigInt({ min: 1n, max: 2n ** 40n }),
  disk: fc.bigInt({ min: 1n, max: 2n ** 45n }),
});

describe('the capacity rule', () => {
  it('sells twice an 8-core node at 200 %, but never one plan larger than the node (seed 003)', () => {
    const n = node({ overallocatePercent: { cpu: 200, memory: 100, disk: 100 } });
    const eight = requestedAmounts({ vcpus: 8, ramGb: 1, diskGb: 10 });
    expect(nodeCapacityFit(n, eight).fits).toBe(true);
    const oneSold = { ...n, sold: eight };
    expect(nodeCapacityFit(oneSold, eight).fits).toBe(true);
    const twoSold = { ...n, sold: { cpu: 16n, memory: 2n * GIB, disk: 20n * GIB } };
    expect(problems(nodeCapacityFit(twoSold, eight))).toEqual(['cpu CAPACITY_OVERSOLD']);
    const sixteen = requestedAmounts({ vcpus: 16, ramGb: 1, diskGb: 10 });
    const roomy = node({ overallocatePercent: { cpu: 1000, memory: 100, disk: 100 } });
    expect(problems(nodeCapacityFit(roomy, sixteen))).toEqual(['cpu CAPACITY_EXCEEDS_PHYSICAL']);
  });

  it('takes away what other guests use before applying the percentage', () => {
    // (32 − 12) GiB × 150 % = 30 GiB sellable.
    const n = node({
      usedByOthers: { cpu: 0n, memory: 12n * GIB, disk: 0n },
      overallocatePercent: { cpu: 100, memory: 150, disk: 100 },
      sold: { cpu: 0n, memory: 26n * GIB, disk: 0n },
    });
    expect(sellableAmount(n, 'memory')).toBe(30n * GIB);
    expect(nodeCapacityFit(n, requestedAmounts({ vcpus: 1, ramGb: 4, diskGb: 1 })).fits).toBe(true);
    const fit = nodeCapacityFit(n, requestedAmounts({ vcpus: 1, ramGb: 5, diskGb: 1 }));
    expect(problems(fit)).toEqual(['memory CAPACITY_OVERSOLD']);
    expect(fit.fits ? '' : fit.shortfalls[0]?.note).toBe(
      'memory: 26.0 GiB of 30.0 GiB sellable is sold, 5.0 GiB more does not fit (32.0 GiB at 150 %, 12.0 GiB used by other guests)',
    );
  });

  it('never oversells pinned cores, whatever the CPU percentage says', () => {
    const dedicated = node({
      computeType: 'NODE_COMPUTE_TYPE_DEDICATED',
      overallocatePercent: { cpu: 400, memory: 100, disk: 100 },
      sold: { cpu: 6n, memory: 0n, disk: 0n },
    });
    expect(sellableAmount(dedicated, 'cpu')).toBe(8n);
    expect(nodeCapacityFit(dedicated, { ...NONE, cpu: 2n }).fits).toBe(true);
    expect(problems(nodeCapacityFit(dedicated, { ...NONE, cpu: 3n }))).toEqual(['cpu CAPACITY_OVERSOLD']);
  });

  it('sells nothing of a resource the node has not reported, and names every failing resource', () => {
    const unreported = node({ physical: { cpu: 4n, memory: 0n, disk: 0n } });
    expect(
      problems(nodeCapacityFit(unreported, requestedAmounts({ vcpus: 8, ramGb: 1, diskGb: 1 }))),
    ).toEqual(['cpu CAPACITY_EXCEEDS_PHYSICAL', 'memory CAPACITY_UNREPORTED', 'disk CAPACITY_UNREPORTED']);
  });

  it('counts single bytes exactly at sizes a double cannot', () => {
    // 2^60 bytes at 333 %: not a multiple of 100, so the sellable amount is rounded down.
    const physical = 2n ** 60n;
    const n = node({
      physical: { cpu: 8n, memory: 64n * GIB, disk: physical },
      overallocatePercent: { cpu: 100, memory: 100, disk: 333 },
    });
    const sellable = (physical * 333n) / 100n;
    expect(sellableAmount(n, 'disk')).toBe(sellable);
    const request = { cpu: 1n, memory: GIB, disk: 2n ** 54n };
    const atTheEdge = { ...n, sold: { ...NONE, disk: sellable - request.disk } };
    expect(nodeCapacityFit(atTheEdge, request).fits).toBe(true);
    const oneByteOver = { ...n, sold: { ...NONE, disk: sellable - request.disk + 1n } };
    expect(problems(nodeCapacityFit(oneByteOver, request))).toEqual(['disk CAPACITY_OVERSOLD']);
  });

  it('fits exactly when each resource fits the node alone and the total stays within what is sellable', () => {
    fc.assert(
      fc.property(states, requests, (state, request) => {
        const fit = nodeCapacityFit(state, request);
        const expected = CAPACITY_RESOURCES.every(
          (r) => request[r] <= state.physical[r] && state.sold[r] + request[r] <= sellableAmount(state, r),
        );
        expect(fit.fits).toBe(expected);
        if (!fit.fits) expect(fit.shortfalls.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it('filling an empty node one request at a time never sells more than is sellable, and stops only when full', () => {
    fc.assert(
      fc.property(
        states.map((s) => ({ ...s, sold: NONE })),
        fc.record({
          cpu: fc.bigInt({ min: 1n, max: 16n }),
          memory: fc.bigInt({ min: GIB, max: 64n * GIB }),
          disk: fc.bigInt({ min: GIB, max: 2n ** 45n }),
        }),
        (empty, request) => {
          const physicalFits = CAPACITY_RESOURCES.every((r) => request[r] <= empty.physical[r]);
          const expectedCount = physicalFits
            ? CAPACITY_RESOURCES.map((r) => sellableAmount(empty, r) / request[r]).reduce((a, b) =>
                a < b ? a : b,
              )
            : 0n;
          fc.pre(expectedCount <= 2000n);
          let state = empty;
          let count = 0n;
          while (nodeCapacityFit(state, request).fits) {
            const sold = state.sold;
            state = {
              ...state,
              sold: {
                cpu: sold.cpu + request.cpu,
                memory: sold.memory + request.memory,
                disk: sold.disk + request.disk,
              },
            };
            count++;
            for (const r of CAPACITY_RESOURCES)
              expect(state.sold[r]).toBeLessThanOrEqual(sellableAmount(state, r));
          }
          expect(count).toBe(expectedCount);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is monotone: less sold or more overallocation never refuses what was accepted', () => {
    fc.assert(
      fc.property(states, requests, fc.nat({ max: 500 }), (state, request, extraPercent) => {
        fc.pre(nodeCapacityFit(state, request).fits);
        const lessSold = {
          ...state,
          sold: { cpu: state.sold.cpu / 2n, memory: 0n, disk: state.sold.disk / 3n },
        };
        expect(nodeCapacityFit(lessSold, request).fits).toBe(true);
        const p = state.overallocatePercent;
        const more = {
          ...state,
          overallocatePercent: {
            cpu: p.cpu + extraPercent,
            memory: p.memory + extraPercent,
            disk: p.disk + extraPercent,
          },
        };
        expect(nodeCapacityFit(more, request).fits).toBe(true);
      }),
    );
  });
});
