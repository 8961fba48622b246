import { readFile } from 'node:fs/promises';

import { describe, expect, it } from 'vitest';

import { API_TYPES_FILE, renderApiTypes } from './api-types.js';

describe("the dashboard's generated API types", () => {
  it('are what the control plane declares today (run `npm run api-types -w @noderings/dashboard` if not)', async () => {
    const committed = await readFile(API_TYPES_FILE, 'utf8');
    expect(committed === (await renderApiTypes()), `${API_TYPES_FILE} is stale`).toBe(true);
  }, 120_000);
});
