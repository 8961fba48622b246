import { z } from 'zod';

/**
 * An enum whose stored values differ from the API's `TYPE_NAME_VALUE` form: one table, read both ways, so
 * that the database and the domain keep their values and every /v1 answer and request spells the wire form.
 */
export interface WireEnum<Domain extends string, Wire extends string> {
  readonly schema: z.ZodEnum<{ [W in Wire]: W }>;
  toWire(value: Domain): Wire;
  fromWire(value: Wire): Domain;
}

export function wireEnum<const Domain extends string, const Wire extends string>(
  table: Readonly<Record<Domain, Wire>>,
): WireEnum<Domain, Wire> {
  const pairs = Object.entries(table) as [Domain, Wire][];
  const back = new Map(pairs.map(([d, w]) => [w, d]));
  return {
    schema: z.enum(pairs.map(([, w]) => w) as [Wire, ...Wire[]]),
    toWire: (value) => table[value],
    fromWire: (value) => {
      const d = back.get(value);
      if (d === undefined) throw new RangeError(`not a wire value: ${value}`);
      return d;
    },
  };
}
