import { describe, expect, it } from 'vitest';
import { findCondition, isConditionTrue, setCondition } from './condition.js';

const t0 = new Date('2026-11-30T10:00:00Z');
const t1 = new Date('2026-11-30T10:05:00Z');

describe('setCondition', () => {
  it('adds a condition with observedGeneration and the transition time', () => {
    const conditions = setCondition(
      undefined,
      { type: 'Ready', status: 'False', reason: 'Cloning', message: 'clone task running' },
      2,
      t0,
    );
    expect(conditions).toEqual([
      {
        type: 'Ready',
        status: 'False',
        reason: 'Cloning',
        message: 'clone task running',
        observedGeneration: 2,
        lastTransitionTime: t0.toISOString(),
      },
    ]);
  });

  it('keeps lastTransitionTime when only reason, message or generation change', () => {
    const before = setCondition(
      undefined,
      { type: 'Ready', status: 'False', reason: 'Cloning', message: 'a' },
      1,
      t0,
    );
    const after = setCondition(
      before,
      { type: 'Ready', status: 'False', reason: 'Starting', message: 'b' },
      2,
      t1,
    );
    expect(findCondition(after, 'Ready')).toMatchObject({
      reason: 'Starting',
      message: 'b',
      observedGeneration: 2,
      lastTransitionTime: t0.toISOString(),
    });
  });

  it('moves lastTransitionTime when status flips', () => {
    const before = setCondition(
      undefined,
      { type: 'Ready', status: 'False', reason: 'Cloning', message: '' },
      1,
      t0,
    );
    const after = setCondition(
      before,
      { type: 'Ready', status: 'True', reason: 'Running', message: '' },
      1,
      t1,
    );
    expect(findCondition(after, 'Ready')?.lastTransitionTime).toBe(t1.toISOString());
    expect(isConditionTrue(after, 'Ready')).toBe(true);
  });

  it('returns the same array when nothing changed, so callers can skip the write', () => {
    const before = setCondition(
      undefined,
      { type: 'Ready', status: 'True', reason: 'Running', message: '' },
      1,
      t0,
    );
    expect(
      setCondition(before, { type: 'Ready', status: 'True', reason: 'Running', message: '' }, 1, t1),
    ).toBe(before);
  });

  it('leaves other condition types alone', () => {
    const a = setCondition(
      undefined,
      { type: 'Ready', status: 'True', reason: 'Running', message: '' },
      1,
      t0,
    );
    const b = setCondition(
      a,
      { type: 'SmtpBlocked', status: 'True', reason: 'RuleApplied', message: '' },
      1,
      t1,
    );
    expect(b.map((c) => c.type)).toEqual(['Ready', 'SmtpBlocked']);
    expect(b[0]).toBe(a[0]);
  });

  it('insists on CamelCase reasons', () => {
    expect(() =>
      setCondition(undefined, { type: 'Ready', status: 'False', reason: 'clone failed', message: '' }, 1),
    ).toThrow(TypeError);
  });
});
