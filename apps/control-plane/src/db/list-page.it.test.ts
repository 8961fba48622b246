import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openDatabase } from './database.js';
import { listPage } from './list-page.js';
import type { Database } from './schema.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './test-database.test-support.js';

/** Tables of the test's own, so that it depends on no migration. */
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- $extendTables wants an index signature, which only a type alias gets implicitly.
type Tables = {
  list_page_items: { id: number; name: string; hidden: boolean };
  list_page_empty: { id: number };
};

/** Seven visible items, named so that their order is the reverse of their ids, and one hidden one. */
const ITEMS = [
  { id: 1, name: 'g', hidden: false },
  { id: 2, name: 'f', hidden: false },
  { id: 3, name: 'e', hidden: false },
  { id: 4, name: 'x', hidden: true },
  { id: 5, name: 'd', hidden: false },
  { id: 6, name: 'c', hidden: false },
  { id: 7, name: 'b', hidden: false },
  { id: 8, name: 'a', hidden: false },
];

describe.each(DATABASE_KINDS)('listPage on the %s database', (kind) => {
  let database: TestDatabase;
  let db: Kysely<Database & Tables>;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = (await openDatabase(database.location)).$extendTables<Tables>();
    await db.schema
      .createTable('list_page_items')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('hidden', 'boolean', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('list_page_empty')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .execute();
    await db.insertInto('list_page_items').values(ITEMS).execute();
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  function visibleByName(page: number) {
    return listPage(
      db.selectFrom('list_page_items').where('hidden', '=', false).select(['id', 'name']).orderBy('name'),
      { page, pageSize: 3 },
      (rows) => rows.map((r) => r.name),
    );
  }

  it('reads a middle page in the query order, with the count of every matching row', async () => {
    expect(await visibleByName(1)).toEqual({ items: ['d', 'e', 'f'], totalCount: 7 });
  });

  it('reads the last, partial page', async () => {
    expect(await visibleByName(2)).toEqual({ items: ['g'], totalCount: 7 });
  });

  it('still counts the matching rows on a page past the end', async () => {
    expect(await visibleByName(5)).toEqual({ items: [], totalCount: 7 });
  });

  it('reads an empty table as no items and a count of zero', async () => {
    for (const page of [0, 2]) {
      const result = await listPage(
        db.selectFrom('list_page_empty').selectAll().orderBy('id'),
        { page, pageSize: 3 },
        (rows) => rows.map((r) => r.id),
      );
      expect(result).toEqual({ items: [], totalCount: 0 });
    }
  });

  it('hands the mapper the selected columns only', async () => {
    const result = await listPage(
      db.selectFrom('list_page_items').select('id').orderBy('id', 'desc'),
      { page: 0, pageSize: 2 },
      (rows) => rows,
    );
    expect(result).toEqual({ items: [{ id: 8 }, { id: 7 }], totalCount: 8 });
  });
});
