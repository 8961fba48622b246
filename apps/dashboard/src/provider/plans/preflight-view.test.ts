import { describe, expect, it } from 'vitest';

import type { PreflightChain } from '../../api/api-resources.js';
import { chainLabel, checkTitle, partitionChecks, passingChains } from './preflight-view.js';

describe('preflight view', () => {
  it('names checks and their sub-checks in words', () => {
    expect(checkTitle('AGENT_PEERED')).toBe('Agent peered');
    expect(checkTitle('NODE_CAPACITY_LEFT_MEMORY')).toBe('Capacity left: memory');
    expect(checkTitle('NODE_PLAN_FITS_CPU')).toBe('Plan fits the node: CPU');
    expect(checkTitle('SOMETHING_NEW')).toBe('Something new');
  });

  it('puts failing checks apart from passing ones, in order', () => {
    const check = (code: string, passed: boolean) => ({ code, passed, note: '', subChecks: [] });
    const { failed, passed } = partitionChecks([check('A', true), check('B', false), check('C', false)]);
    expect(failed.map((c) => c.code)).toEqual(['B', 'C']);
    expect(passed.map((c) => c.code)).toEqual(['A']);
  });

  it('labels a chain by the path an order takes', () => {
    const chain = {
      passed: true,
      agent: {
        id: 'a',
        name: 'sandbox-agent',
        checks: [],
        platform: { id: 'p', name: 'pve-sim', checks: [], node: { id: 'n', name: 'pve1', checks: [] } },
      },
    } as PreflightChain;
    expect(chainLabel(chain)).toBe('sandbox-agent → pve-sim → pve1');
    expect(passingChains([chain, { ...chain, passed: false }])).toBe(1);
  });
});
