import type { Migration } from 'kysely/migration';

import * as tenancy from './0001-tenancy.js';
import * as infrastructure from './0002-infrastructure.js';

/** Every migration, by name; names sort in the order they run. Never edit one that has shipped: add another. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-tenancy': { up: tenancy.up },
  '0002-infrastructure': { up: infrastructure.up },
};
