import { describe, expect, it } from 'vitest';

import { NEW_PLAN, planRequest, validatePlan } from './plan-form.js';

const complete = {
  ...NEW_PLAN,
  name: 'Standard 2',
  monthlyPrice: '12.00',
  regionIds: ['r'],
  nodeIds: ['n1'],
};

describe('the plan form', () => {
  it('accepts a complete plan and sends a monthly subscription price', () => {
    expect(validatePlan(complete)).toEqual({});
    expect(planRequest(complete)).toMatchObject({
      vcpus: 2,
      ramGb: 4,
      diskGb: 40,
      bandwidthAllowanceGb: 0,
      planPrices: [{ billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'USD', unitAmount: '12.00' }],
      regionIds: ['r'],
      nodeIds: ['n1'],
      isPublic: true,
    });
  });

  it('sells in several regions, each with a node of its own', () => {
    const two = { ...complete, regionIds: ['r', 's'], nodeIds: ['n1', 'n2'] };
    const nodeRegions = new Map([
      ['n1', 'r'],
      ['n2', 's'],
    ]);
    expect(validatePlan(two, nodeRegions)).toEqual({});
    expect(planRequest(two)).toMatchObject({ regionIds: ['r', 's'], nodeIds: ['n1', 'n2'] });
    const names = (id: string) => (id === 's' ? 'Amsterdam' : 'Frankfurt');
    expect(validatePlan({ ...two, nodeIds: ['n1'] }, nodeRegions, names)).toEqual({
      nodeIds: 'Choose at least one node in Amsterdam: the plan sells there.',
    });
    expect(validatePlan({ ...two, regionIds: [] })).toHaveProperty('regionIds');
  });

  it('refuses a free plan (preflight would never pass it) and a region without nodes', () => {
    expect(validatePlan({ ...complete, monthlyPrice: '0' })).toHaveProperty('monthlyPrice');
    expect(validatePlan({ ...complete, nodeIds: [] })).toHaveProperty('nodeIds');
    expect(Object.keys(validatePlan({ ...complete, vcpus: '0', currency: 'usd' })).sort()).toEqual([
      'currency',
      'vcpus',
    ]);
  });
});
