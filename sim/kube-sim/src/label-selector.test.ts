import { describe, expect, it } from 'vitest';
import { LabelSelector } from './label-selector.js';

describe('LabelSelector', () => {
  const labels = { app: 'web', tier: 'front', n: '5' };

  it.each([
    ['', true],
    ['app=web', true],
    ['app==web', true],
    ['app!=web', false],
    ['app!=db', true],
    ['app in (db, web)', true],
    ['app notin (web)', false],
    ['missing notin (x)', true],
    ['tier', true],
    ['!tier', false],
    ['app=web,tier=back', false],
    ['n>4', true],
    ['n<5', false],
  ])('%s → %s', (text, expected) => {
    expect(LabelSelector.parse(text).matches(labels)).toBe(expected);
  });

  it.each(['app in db', 'a=b=c', '=x', 'app in (a b)'])('refuses %s', (text) => {
    expect(() => LabelSelector.parse(text)).toThrow(/unable to parse requirement/);
  });
});
