import { describe, expect, it } from 'vitest';

import { returnPath } from './return-path.js';

describe('returnPath', () => {
  it('goes back to the page that needed a sign-in', () => {
    expect(returnPath({ from: '/vms/abc?x=1' })).toBe('/vms/abc?x=1');
  });

  it('never leaves the site, and falls back to the start page', () => {
    expect(returnPath({ from: '//evil.example/' })).toBe('/');
    expect(returnPath({ from: 'https://evil.example/' })).toBe('/');
    expect(returnPath(null)).toBe('/');
    expect(returnPath({ from: 42 })).toBe('/');
  });
});
