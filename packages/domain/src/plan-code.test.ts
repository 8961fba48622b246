import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  COMPUTE_CATEGORIES,
  COMPUTE_TYPES,
  derivePlanCode,
  findComputeType,
  parsePlanCode,
  type PlanCodeParts,
} from './plan-code.js';
import { planDefinitionViolations, type PlanDefinition } from './plan-definition.js';
import { nodeComputeTypeFor, planNodeFit } from './plan-node-fit.js';

const GIB = 1024 ** 3;

const small: PlanCodeParts = {
  computeCategory: 'COMPUTE_CATEGORY_SHARED_COMPUTE',
  computeType: 'COMPUTE_TYPE_GENERAL_COMPUTE',
  vcpus: 2,
  ramGb: 4,
  diskGb: 40,
};

const parts = fc.record({
  computeCategory: fc.constantFrom(...COMPUTE_CATEGORIES),
  computeType: fc.constantFrom(...COMPUTE_TYPES),
  vcpus: fc.integer({ min: 1, max: 512 }),
  ramGb: fc.integer({ min: 1, max: 4096 }),
  diskGb: fc.integer({ min: 1, max: 1_048_576 }),
});

describe('plan codes', () => {
  it('derives the code from the category, compute type and specs', () => {
    expect(derivePlanCode(small)).toBe('SC-GC-2C-4G-40');
    expect(
      derivePlanCode({
        computeCategory: 'COMPUTE_CATEGORY_DEDICATED_COMPUTE',
        computeType: 'COMPUTE_TYPE_HIGH_FREQUENCY',
        vcpus: 4,
        ramGb: 8,
        diskGb: 160,
      }),
    ).toBe('DC-HF-4C-8G-160');
    expect(derivePlanCode({ ...small, computeType: 'COMPUTE_TYPE_VERY_HIGH_FREQUENCY' })).toBe(
      'SC-VHF-2C-4G-40',
    );
  });

  it('parses every code it derives back to the same specs', () => {
    fc.assert(
      fc.property(parts, (p) => {
        expect(parsePlanCode(derivePlanCode(p))).toEqual(p);
      }),
    );
  });

  it.each([
    '',
    'SC-GC-2C-4G',
    'XC-GC-2C-4G-40',
    'SC-XX-2C-4G-40',
    'SC-GC-0C-4G-40',
    'sc-gc-2c-4g-40',
    'DC-GS-9950X-*',
  ])('does not parse %j', (code) => {
    expect(parsePlanCode(code)).toBeUndefined();
  });

  it('finds a compute type by name or abbreviation', () => {
    expect(findComputeType('hf')).toBe('COMPUTE_TYPE_HIGH_FREQUENCY');
    expect(findComputeType('COMPUTE_TYPE_GAME_SERVER')).toBe('COMPUTE_TYPE_GAME_SERVER');
    expect(findComputeType('turbo')).toBeUndefined();
  });
});

describe('plan definitions', () => {
  const plan: PlanDefinition = {
    ...small,
    name: 'Small',
    bandwidthAllowanceGb: 0,
    bandwidthPeriod: 'BILLING_PERIOD_MONTH',
    networkRateLimitMbps: 0,
    cpuUnits: 1024,
    cpuLimit: 0,
    billingType: 'BILLING_TYPE_SUBSCRIPTION',
    planPrices: [
      { billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount: '5.000000' },
      { billingPeriod: 'BILLING_PERIOD_YEAR', currency: 'EUR', unitAmount: '50.000000' },
    ],
    setupFee: '0.000000',
    trialDays: 0,
    regionIds: ['r'],
    nodeIds: ['a', 'b'],
    isPublic: true,
    onCreditExhaustion: 'suspend',
  };
  const fields = (p: PlanDefinition, code?: string) => planDefinitionViolations(p, code).map((v) => v.field);

  it('accepts a consistent plan and its code', () => {
    expect(planDefinitionViolations(plan)).toEqual([]);
    expect(planDefinitionViolations(plan, 'SC-GC-2C-4G-40')).toEqual([]);
  });

  it('refuses a code that disagrees with the specs, naming the code it should be', () => {
    const [violation] = planDefinitionViolations(plan, 'SC-GC-2C-8G-40');
    expect(violation?.field).toBe('code');
    expect(violation?.description).toContain('SC-GC-2C-4G-40');
  });

  it('names each price that breaks a rule by its index', () => {
    const planPrices = [
      ...plan.planPrices,
      { billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount: '6.000000' },
      { billingPeriod: 'BILLING_PERIOD_DAY', currency: 'USD', unitAmount: '1.000000' },
    ] as const;
    expect(fields({ ...plan, planPrices })).toEqual(['planPrices.2.billingPeriod', 'planPrices.3.currency']);
    expect(fields({ ...plan, planPrices: [] })).toEqual(['planPrices']);
  });

  it('sells in at least one region, each named once', () => {
    expect(fields({ ...plan, regionIds: ['r', 's'] })).toEqual([]);
    expect(fields({ ...plan, regionIds: [] })).toEqual(['regionIds']);
    expect(fields({ ...plan, regionIds: ['r', 's', 'r'] })).toEqual(['regionIds.2']);
  });

  it('bills usage plans by the hour only', () => {
    expect(fields({ ...plan, billingType: 'BILLING_TYPE_USAGE' })).toEqual([
      'planPrices.0.billingPeriod',
      'planPrices.1.billingPeriod',
    ]);
    expect(
      fields({
        ...plan,
        billingType: 'BILLING_TYPE_USAGE',
        planPrices: [{ billingPeriod: 'BILLING_PERIOD_HOUR', currency: 'EUR', unitAmount: '0.010000' }],
      }),
    ).toEqual([]);
  });

  it('keeps the CPU limit within the vCPUs and refuses blank names and repeated nodes', () => {
    expect(fields({ ...plan, cpuLimit: 3, name: '  ', nodeIds: ['a', 'b', 'a'] })).toEqual([
      'name',
      'cpuLimit',
      'nodeIds.2',
    ]);
    expect(fields({ ...plan, cpuLimit: 1.25 })).toEqual([]);
    expect(fields({ ...plan, cpuLimit: 1.255 })).toEqual(['cpuLimit']);
  });
});

describe('whether a plan fits a node', () => {
  it('is unknown while the node has reported nothing', () => {
    expect(planNodeFit(small, { cpuCores: 0, memoryBytes: 0, vmStorageBytes: 0 })).toEqual({
      kind: 'unknown',
      unreported: ['cpu', 'memory', 'storage'],
    });
  });

  it('fits up to the physical capacity, whatever the overallocation', () => {
    expect(planNodeFit(small, { cpuCores: 2, memoryBytes: 4 * GIB, vmStorageBytes: 40 * GIB })).toEqual({
      kind: 'fits',
    });
  });

  it('exceeds a node with fewer cores, even when other resources are unreported', () => {
    const fit = planNodeFit({ ...small, vcpus: 16 }, { cpuCores: 8, memoryBytes: 0, vmStorageBytes: 0 });
    expect(fit.kind).toBe('exceeds');
    expect(fit.kind === 'exceeds' && fit.problem).toContain('8 CPU cores');
    expect(planNodeFit(small, { cpuCores: 8, memoryBytes: 3 * GIB, vmStorageBytes: 100 * GIB }).kind).toBe(
      'exceeds',
    );
  });

  it('runs shared plans on shared nodes and dedicated plans on dedicated ones', () => {
    expect(nodeComputeTypeFor('COMPUTE_CATEGORY_SHARED_COMPUTE')).toBe('NODE_COMPUTE_TYPE_SHARED');
    expect(nodeComputeTypeFor('COMPUTE_CATEGORY_DEDICATED_COMPUTE')).toBe('NODE_COMPUTE_TYPE_DEDICATED');
  });
});
