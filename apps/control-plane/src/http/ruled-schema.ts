import type { Problem } from '@noderings/domain';
import type { z } from 'zod';

/**
 * A field checked by one of the domain's rules, so that the message is the same wherever it is checked.
 * The rule runs only on a value that passed the schema's own checks (type, range), so that one bad value
 * is one violation.
 */
export function ruled<T extends z.ZodType>(schema: T, problem: (value: z.output<T>) => Problem): T {
  return schema.superRefine(
    (value, ctx) => {
      const description = problem(value);
      if (description !== undefined) ctx.addIssue({ code: 'custom', message: description });
    },
    { when: (payload) => payload.issues.length === 0 },
  );
}
