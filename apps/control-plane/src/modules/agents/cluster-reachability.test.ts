import { describe, expect, it } from 'vitest';

import { CLUSTER_CHECK_TTL_MS, ClusterReachability } from './cluster-reachability.js';

function setUp(answers: { reachable: boolean; error: string }[]) {
  let now = Date.UTC(2026, 11, 2, 3);
  const asked: string[] = [];
  const waiting: (() => void)[] = [];
  const reach = new ClusterReachability({
    now: () => new Date(now),
    check: async (agentId) => {
      asked.push(agentId);
      await new Promise<void>((resolve) => waiting.push(resolve));
      return answers.shift() ?? { reachable: false, error: 'no more answers' };
    },
  });
  return {
    reach,
    asked,
    answerAll: () => {
      for (const resolve of waiting.splice(0)) resolve();
    },
    later: (ms: number) => (now += ms),
  };
}

describe('ClusterReachability', () => {
  it('waits for the first check, then answers from it until it ages', async () => {
    const t = setUp([{ reachable: true, error: '' }]);
    const first = t.reach.of('a');
    const second = t.reach.of('a');
    t.answerAll();
    expect(await first).toMatchObject({ reachable: true });
    expect(await second).toMatchObject({ reachable: true });
    // Two reads at once made one check.
    expect(t.asked).toEqual(['a']);
    t.later(CLUSTER_CHECK_TTL_MS - 1);
    expect(await t.reach.of('a')).toMatchObject({ reachable: true });
    expect(t.asked).toEqual(['a']);
  });

  it('answers an aged result at once and checks again behind it', async () => {
    const t = setUp([
      { reachable: true, error: '' },
      { reachable: false, error: 'no answer within 10 s' },
    ]);
    const first = t.reach.of('a');
    t.answerAll();
    await first;
    t.later(CLUSTER_CHECK_TTL_MS);
    expect(await t.reach.of('a')).toMatchObject({ reachable: true });
    expect(t.asked).toEqual(['a', 'a']);
    t.answerAll();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await t.reach.of('a')).toMatchObject({ reachable: false, error: 'no answer within 10 s' });
  });

  it('counts a check that throws as unreachable, with its message', async () => {
    const reach = new ClusterReachability({
      now: () => new Date(),
      check: () => Promise.reject(new Error('Agent a has no inbound peering config yet.')),
    });
    expect(await reach.of('a')).toMatchObject({
      reachable: false,
      error: 'Agent a has no inbound peering config yet.',
    });
  });
});
