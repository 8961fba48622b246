import type { SelectQueryBuilder } from 'kysely';

import { offsetOf, type Page, type PageResult } from '../http/pagination.js';

/** pg reads a bigint count as a string, PGlite as a number. */
type Count = string | number | bigint;

/**
 * One page of `query` (filters, selection and ordering applied; no limit or offset) and the count of all
 * its rows, in one round trip: each row carries the total in a window count. A page past the end has no
 * row to carry it, so only then is the total counted separately, over the same joins and filters (which
 * is why `query` may not be grouped or DISTINCT: that count would be of the rows before grouping).
 * `toItems` turns the page's rows into items (it may batch-load what the rows refer to).
 */
export async function listPage<DB, TB extends keyof DB, O, T>(
  query: SelectQueryBuilder<DB, TB, O>,
  page: Page,
  toItems: (rows: O[]) => readonly T[] | Promise<readonly T[]>,
): Promise<PageResult<T>> {
  const offset = offsetOf(page);
  const rows = await query
    .select((eb) => eb.fn.countAll<Count>().over().as('total_count'))
    // Kysely cannot work out the row type of a selection added to a generic one.
    .$castTo<O & { total_count: Count }>()
    .limit(page.pageSize)
    .offset(offset)
    .execute();
  const first = rows[0];
  let totalCount: number;
  if (first !== undefined) totalCount = Number(first.total_count);
  else if (offset === 0) totalCount = 0;
  else totalCount = await countOf(query);
  // The mapper sees the rows as selected, without the count riding on them.
  const selected = rows.map(({ total_count: _total, ...row }) => row as O);
  return { items: await toItems(selected), totalCount };
}

async function countOf<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): Promise<number> {
  const row = await query
    .clearSelect()
    .clearOrderBy()
    .select((eb) => eb.fn.countAll<Count>().as('n'))
    .$castTo<{ n: Count }>()
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
