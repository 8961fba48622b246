import { ensureDashboardBuilt } from './dashboard-build.js';

/**
 * vitest's global setup: builds the dashboard once, before any test starts, when its build is missing or
 * older than its sources, so that the sandbox and browser tests never build it at the same time.
 */
export default async function setup(): Promise<void> {
  await ensureDashboardBuilt((line) => process.stdout.write(`${line}\n`));
}
