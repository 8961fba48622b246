import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  chooseNode,
  NODE_PLACEMENT_STRATEGIES,
  strategyForRegion,
  type PlacementCandidate,
  type PlacementContext,
} from './placement-policy.js';

const ORDER = ['n1', 'n2', 'n3', 'n4', 'n5'];
const never = () => {
  throw new Error('not random');
};

function candidates(ids: readonly string[], assigned: Record<string, number> = {}): PlacementCandidate[] {
  return ids.map((nodeId) => ({ nodeId, assignedVms: assigned[nodeId] ?? 0 }));
}

function context(overrides: Partial<PlacementContext> = {}): PlacementContext {
  return { stableOrder: ORDER, randomIndex: never, ...overrides };
}

describe('placement strategies', () => {
  it('FIRST_STABLE takes the oldest qualifying node, whatever order the candidates come in', () => {
    const chosen = chooseNode(
      'NODE_PLACEMENT_STRATEGY_FIRST_STABLE',
      candidates(['n4', 'n2', 'n3']),
      context(),
    );
    expect(chosen?.nodeId).toBe('n2');
  });

  it('ROUND_ROBIN continues after the last node, skips those that do not qualify and wraps around', () => {
    const rr = (ids: string[], lastNodeId?: string) =>
      chooseNode('NODE_PLACEMENT_STRATEGY_ROUND_ROBIN', candidates(ids), context({ lastNodeId }))?.nodeId;
    expect(rr(['n1', 'n2', 'n3'])).toBe('n1');
    expect(rr(['n1', 'n2', 'n3'], 'n1')).toBe('n2');
    // n3 is full now: its place in the circle stays, so n4 follows n2.
    expect(rr(['n1', 'n2', 'n4'], 'n2')).toBe('n4');
    expect(rr(['n1', 'n2', 'n4'], 'n4')).toBe('n1');
    // A last node that has since left the plan starts the circle again.
    expect(rr(['n2', 'n3'], 'gone')).toBe('n2');
  });

  it('ROUND_ROBIN visits every qualifying node once per turn', () => {
    fc.assert(
      fc.property(fc.subarray(ORDER, { minLength: 1 }), fc.nat({ max: 20 }), (ids, turns) => {
        let last: string | undefined;
        const visits: string[] = [];
        for (let i = 0; i < ids.length * (turns + 1); i++) {
          last = chooseNode(
            'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN',
            candidates(ids),
            context({ lastNodeId: last }),
          )?.nodeId;
          visits.push(last ?? '');
        }
        const sorted = ORDER.filter((id) => ids.includes(id));
        expect(visits).toEqual(Array.from({ length: turns + 1 }, () => sorted).flat());
      }),
    );
  });

  it('LEAST_ASSIGNED_VMS takes the node with the fewest VMs, the oldest among equals', () => {
    const least = (assigned: Record<string, number>) =>
      chooseNode(
        'NODE_PLACEMENT_STRATEGY_LEAST_ASSIGNED_VMS',
        candidates(['n5', 'n3', 'n2'], assigned),
        context(),
      )?.nodeId;
    expect(least({ n5: 1, n3: 4, n2: 2 })).toBe('n5');
    expect(least({ n5: 2, n3: 2, n2: 2 })).toBe('n2');
    expect(least({ n5: 0, n3: 0, n2: 7 })).toBe('n3');
  });

  it('RANDOM takes the candidate the injected random number names, in stable order', () => {
    const random = (index: number) =>
      chooseNode(
        'NODE_PLACEMENT_STRATEGY_RANDOM',
        candidates(['n3', 'n1', 'n5']),
        context({ randomIndex: (bound) => (bound === 3 ? index : -1) }),
      )?.nodeId;
    expect([0, 1, 2].map(random)).toEqual(['n1', 'n3', 'n5']);
    expect(() => random(3)).toThrow(RangeError);
  });

  it('always answers one of the candidates, and nothing when there is none', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...NODE_PLACEMENT_STRATEGIES),
        fc.subarray(ORDER),
        fc.dictionary(fc.constantFrom(...ORDER), fc.nat({ max: 9 })),
        fc.option(fc.constantFrom(...ORDER), { nil: undefined }),
        fc.nat(),
        (strategy, ids, assigned, lastNodeId, seed) => {
          const chosen = chooseNode(
            strategy,
            candidates(ids, assigned),
            context({ lastNodeId, randomIndex: (bound) => seed % bound }),
          );
          if (ids.length === 0) expect(chosen).toBeUndefined();
          else expect(ids).toContain(chosen?.nodeId);
        },
      ),
    );
  });
});

describe('the strategy for a region', () => {
  it('is the region’s override when it has one, the default otherwise', () => {
    const policy = {
      defaultStrategy: 'NODE_PLACEMENT_STRATEGY_FIRST_STABLE',
      regionOverrides: [{ regionId: 'fra', strategy: 'NODE_PLACEMENT_STRATEGY_RANDOM' }],
    } as const;
    expect(strategyForRegion(policy, 'fra')).toBe('NODE_PLACEMENT_STRATEGY_RANDOM');
    expect(strategyForRegion(policy, 'ams')).toBe('NODE_PLACEMENT_STRATEGY_FIRST_STABLE');
  });
});
