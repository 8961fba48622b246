import { SPECIAL_PURPOSE_RANGES } from '@noderings/domain';
import { describe, expect, it } from 'vitest';

import { SHAREABLE_SPACE } from './0016-prefix-address-space.js';

describe('migration 0016', () => {
  it('shares the space the domain calls private or documentation, and no other', () => {
    const shareable = SPECIAL_PURPOSE_RANGES.filter((r) => r.use !== 'reserved').map((r) => r.cidr);
    expect([...SHAREABLE_SPACE].sort()).toEqual(shareable.sort());
  });
});
