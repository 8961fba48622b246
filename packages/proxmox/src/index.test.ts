import { expect, test } from 'vitest';
import { placeholder } from './index.js';
test('x', () => {
  expect(placeholder).toBe(1);
});
