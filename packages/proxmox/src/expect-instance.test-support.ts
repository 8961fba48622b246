import { expect } from 'vitest';

/** Asserts that `value` is a `kind` and returns it typed as one. */
export function expectInstance<T>(value: unknown, kind: abstract new (...args: never[]) => T): T {
  expect(value).toBeInstanceOf(kind);
  if (!(value instanceof kind)) throw new Error(`expected an instance of ${kind.name}`);
  return value;
}
