import { currencyProblem, MAX_PERCENTAGE, moneyAmountProblem, percentageProblem } from '@noderings/domain';
import { z } from 'zod';

import { ruled } from './ruled-schema.js';

/** A money amount as the NodeRings API spells it: a decimal string, never a JSON number. */
export const moneyAmount = ruled(z.string().max(24), moneyAmountProblem).describe(
  'A non-negative decimal string with up to six decimals, like 12.5; answers always carry six (12.500000).',
);

export const currencyCode = ruled(z.string().max(3), currencyProblem).describe('ISO 4217, like EUR.');

/** A JSON number from 0 to 100 with at most four decimals. */
export const percentage = ruled(z.number().min(0).max(MAX_PERCENTAGE), percentageProblem);
