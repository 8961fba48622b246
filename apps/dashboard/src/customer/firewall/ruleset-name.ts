import { maxLength, required, validate, type FieldErrors } from '../../ui/form-validation.js';

/** The API's rule for ruleset names: 1 to 100 characters, no spaces at either end. */
export function validateRulesetName(name: string): FieldErrors {
  return validate(
    { name },
    {
      name: [
        required,
        maxLength(100),
        (v) => (v.trim() !== v ? 'Remove the spaces at the start or end.' : undefined),
      ],
    },
  );
}

/** `base`, or `base-2`, `base-3`, … whichever no ruleset has yet, for a name to suggest. */
export function freeRulesetName(base: string, taken: readonly string[]): string {
  const names = new Set(taken);
  if (!names.has(base)) return base;
  let n = 2;
  while (names.has(`${base}-${n}`)) n += 1;
  return `${base}-${n}`;
}
