import { fileURLToPath } from 'node:url';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { launchChromium, screenshot } from './browser.test-support.js';
import { startSandbox, type Sandbox } from './sandbox.js';

/**
 * What the dashboard reads out, in a real browser against the sandbox: sizes in one unit system, charts
 * over the chosen range, the hypervisor's power line after a power action, and the agent's service status.
 * Metrics are forwarded once, at the start, and not again during the tests: what the pages show then comes
 * from the agent cluster's own reports, not from a metrics scrape that happens to land in time.
 */

const DASHBOARD_DIR = fileURLToPath(new URL('../../apps/dashboard/dist', import.meta.url));
const PASSWORD = 'sandbox-password';
const START_TIMEOUT_MS = 120_000;
const JOURNEY_TIMEOUT_MS = 180_000;
/** Order to Running goes through kube-sim, the operator and pve-sim (tasks of 250 ms). */
const RUNNING_TIMEOUT_MS = 90_000;
const STEP_TIMEOUT_MS = 20_000;
/** Longer than the tests: the start's one forward is all the metrics they get. */
const METRICS_INTERVAL_MS = 3_600_000;
const HOUR_MS = 3_600_000;
/** A "word" GB or MB: decimal units that must not appear beside the binary ones. */
const DECIMAL_UNIT = /\b[GMT]B\b/;

describe('what the dashboard reads out', () => {
  let sandbox: Sandbox | undefined;
  let browser: Browser | undefined;
  /** The VM the customer orders in the first test that needs one. */
  let vmPath: string | undefined;

  beforeAll(async () => {
    sandbox = await startSandbox({
      dashboardDir: DASHBOARD_DIR,
      forwardMetrics: { intervalMs: METRICS_INTERVAL_MS },
      log: () => undefined,
    });
    browser = await launchChromium();
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  async function signedIn(email: string): Promise<Page> {
    if (browser === undefined || sandbox === undefined) throw new Error('the sandbox did not start');
    const context = await browser.newContext({
      baseURL: sandbox.controlPlaneUrl,
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    return page;
  }

  function nav(page: Page, name: string) {
    return page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
  }

  /** The customer's running VM page: orders one the first time. */
  async function customerVmPage(): Promise<Page> {
    const page = await signedIn('customer@sandbox.local');
    if (vmPath !== undefined) {
      await page.goto(vmPath);
      await page.getByRole('heading', { level: 1, name: 'units-1' }).waitFor();
      return page;
    }
    await nav(page, 'Marketplace').click();
    await page.getByRole('link', { name: 'Compare offers for SC-GC-2C-4G-40' }).click();
    await page.getByRole('link', { name: 'Order Standard from Sandbox Hosting' }).click();
    const order = page.getByRole('form', { name: 'Order VM' });
    await order.getByLabel('Hostname').fill('units-1');
    await order.getByLabel('Password', { exact: true }).check();
    await order.getByLabel('Root password', { exact: true }).fill('a long root password');
    await order.getByLabel('Confirm root password').fill('a long root password');
    await order.getByRole('button', { name: 'Order VM' }).click();
    await page.getByRole('heading', { level: 1, name: 'units-1' }).waitFor();
    await page
      .getByRole('status', { name: 'VM status' })
      .filter({ hasText: /^Running$/ })
      .waitFor({ timeout: RUNNING_TIMEOUT_MS });
    vmPath = new URL(page.url()).pathname;
    return page;
  }

  function details(page: Page, term: string) {
    return page
      .locator('dl.facts dt', { hasText: new RegExp(`^${term}$`) })
      .locator('xpath=following-sibling::dd[1]');
  }

  it(
    'states sizes in binary units on every page (item 22)',
    async () => {
      const customer = await signedIn('customer@sandbox.local');
      await nav(customer, 'Marketplace').click();
      await customer.getByRole('link', { name: 'Compare offers for SC-GC-2C-4G-40' }).waitFor();
      const filters = customer.getByRole('form', { name: 'Filter plans' });
      await filters.getByLabel('Minimum memory (GiB)').waitFor();
      await filters.getByLabel('Minimum disk (GiB)').waitFor();
      const marketplace = await customer.locator('main').innerText();
      expect(marketplace).toContain('2 vCPU · 4 GiB RAM · 40 GiB disk');
      expect(marketplace).not.toMatch(DECIMAL_UNIT);

      await customer.getByRole('link', { name: 'Compare offers for SC-GC-2C-4G-40' }).click();
      await customer.getByRole('link', { name: 'Order Standard from Sandbox Hosting' }).waitFor();
      expect(await customer.locator('main').innerText()).not.toMatch(DECIMAL_UNIT);
      await customer.context().close();

      const vm = await customerVmPage();
      expect(await details(vm, 'Memory').innerText()).toBe('4 GiB');
      expect(await details(vm, 'Disk').innerText()).toBe('40 GiB');
      const bandwidth = vm.getByRole('region', { name: 'Bandwidth' });
      await bandwidth.getByText(/sent this period/).waitFor();
      expect(await bandwidth.innerText()).toMatch(/GiB/);
      expect(await vm.locator('main').innerText()).not.toMatch(DECIMAL_UNIT);
      await screenshot(vm, 'readouts-vm-units');
      await vm.context().close();

      const provider = await signedIn('provider@sandbox.local');
      await nav(provider, 'Plans & preflight').click();
      await provider.getByRole('heading', { level: 1, name: 'Plans and preflight' }).waitFor();
      await provider.getByLabel('Memory (GiB)').waitFor();
      await provider.getByLabel('Disk (GiB)').waitFor();
      await provider.getByLabel('Traffic allowance per month (GiB)').waitFor();
      expect(await provider.locator('main').innerText()).not.toMatch(DECIMAL_UNIT);
      await provider.context().close();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'draws and asks for the chosen range, ending now (item 21)',
    async () => {
      const page = await customerVmPage();
      const monitoring = page.getByRole('region', { name: 'Monitoring' });
      const range = monitoring.getByLabel('Time range');
      for (const [label, hours, step] of [
        ['Last 7 days', 7 * 24, 3600],
        ['Last 24 hours', 24, 900],
        // Not the hour: that one is asked for as the page opens (and then answered from the cache).
        ['Last 6 hours', 6, 300],
      ] as const) {
        const asked = page.waitForRequest(
          (r) => r.url().includes('/metrics?') && r.url().includes('series=CHART_SERIES_CPU'),
        );
        await range.selectOption({ label });
        const url = new URL((await asked).url());
        const from = Date.parse(url.searchParams.get('from') ?? '');
        const to = Date.parse(url.searchParams.get('to') ?? '');
        expect(to - from).toBe(hours * HOUR_MS);
        expect(Math.abs(Date.now() - to)).toBeLessThan(5 * 60_000);
        expect(url.searchParams.get('step')).toBe(String(step));
        // The chart says which span its x axis covers: the whole range, whatever points there are.
        const cpu = monitoring.getByRole('figure', { name: 'CPU usage' });
        const span = cpu.getByTestId('chart-span');
        await span.filter({ hasText: label }).waitFor();
        const times = span.locator('time');
        const start = Date.parse((await times.nth(0).getAttribute('datetime')) ?? '');
        const end = Date.parse((await times.nth(1).getAttribute('datetime')) ?? '');
        expect(end - start).toBe(hours * HOUR_MS);
        await screenshot(page, `readouts-chart-${String(hours)}h`);
      }
      await page.context().close();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'keeps the hypervisor power line current: the age ticks and a Stop shows (item 20)',
    async () => {
      const page = await customerVmPage();
      const line = page.getByText(/^Power reported by the hypervisor:/);
      await line.filter({ hasText: /Running \(\d+ s ago\)/ }).waitFor({ timeout: RUNNING_TIMEOUT_MS });
      const first = /\((\d+) s ago\)/.exec(await line.innerText())?.[1] ?? '';
      // Nothing new is reported meanwhile (no metrics arrive): only the clock moves the age on.
      await line.filter({ hasText: new RegExp(`Running \\((?!${first} s)\\d+ s ago\\)`) }).waitFor();
      const power = page.getByRole('group', { name: 'Power' });
      await power.getByRole('button', { name: 'Stop', exact: true }).click();
      await page
        .getByRole('status', { name: 'VM status' })
        .filter({ hasText: /^Stopped$/ })
        .waitFor({ timeout: RUNNING_TIMEOUT_MS });
      await line.filter({ hasText: /Stopped \(\d+ s ago\)/ }).waitFor({ timeout: RUNNING_TIMEOUT_MS });
      await screenshot(page, 'readouts-power-stopped');
      await power.getByRole('button', { name: 'Start', exact: true }).click();
      await line.filter({ hasText: /Running \(\d+ s ago\)/ }).waitFor({ timeout: RUNNING_TIMEOUT_MS });
      await page.context().close();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'shows the seeded agent online, with why (item 19)',
    async () => {
      const page = await signedIn('provider@sandbox.local');
      await nav(page, 'Agents').click();
      await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
      const status = details(page, 'Service status');
      await status.waitFor();
      const text = await status.innerText();
      expect(text).toMatch(/^Online/);
      expect(text).toMatch(/cluster reachable/);
      expect(text).toMatch(/metrics received \d+ (s|min) ago/);
      await screenshot(page, 'readouts-agent-online');
      await page.context().close();
    },
    JOURNEY_TIMEOUT_MS,
  );
});
