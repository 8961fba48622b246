import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { groupPages } from './node-pages.js';

describe('pages of whole groups', () => {
  it('fills each page as far as whole groups allow', () => {
    expect(groupPages([2, 2, 1, 3, 1], 4)).toEqual([
      { start: 0, end: 2 },
      { start: 2, end: 4 },
      { start: 4, end: 5 },
    ]);
    expect(groupPages([], 10)).toEqual([]);
  });

  it('gives a group larger than a page a page of its own', () => {
    expect(groupPages([1, 13, 1], 5)).toEqual([
      { start: 0, end: 1 },
      { start: 1, end: 2 },
      { start: 2, end: 3 },
    ]);
  });

  it('covers every group once, in order, and overfills a page only with a single group', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 13 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 20 }),
        (sizes, pageSize) => {
          const pages = groupPages(sizes, pageSize);
          expect(pages.flatMap((p) => sizes.slice(p.start, p.end))).toEqual(sizes);
          for (const page of pages) {
            const total = sizes.slice(page.start, page.end).reduce((a, b) => a + b, 0);
            expect(total <= pageSize || page.end - page.start === 1).toBe(true);
          }
        },
      ),
    );
  });
});
