import { describe, expect, it } from 'vitest';

import { hostnameProblem } from './hostname.js';

describe('host names', () => {
  it.each(['web-1', 'a', 'web1.example.com', 'X'.repeat(63), `${'a'.repeat(63)}.${'b'.repeat(63)}`])(
    'accepts %s',
    (name) => {
      expect(hostnameProblem(name)).toBeUndefined();
    },
  );
  it.each([
    '',
    '-web',
    'web-',
    'web_1',
    'web..example',
    'web.',
    'x'.repeat(64),
    'wéb',
    `${'a.'.repeat(127)}a`,
  ])('refuses %j', (name) => {
    expect(hostnameProblem(name)).toEqual(expect.any(String));
  });
});
