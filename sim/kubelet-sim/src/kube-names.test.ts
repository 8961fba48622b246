import { describe, expect, it } from 'vitest';
import { podTemplateHash, randomSuffix } from './kube-names.js';
import { SeededRandom } from './seeded-random.js';

describe('kube names', () => {
  it('encodes a template hash as kube does: the decimal FNV value, one safe character per digit', () => {
    expect(podTemplateHash(1234567890)).toBe('56789bcdf4');
    expect(podTemplateHash(47_116)).toBe('8c55b');
    expect(podTemplateHash(7)).toBe('c');
  });

  it('makes generateName suffixes from the same alphabet', () => {
    const suffix = randomSuffix(new SeededRandom(3));
    expect(suffix).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });
});
