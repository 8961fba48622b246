import { fileURLToPath } from 'node:url';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { launchChromium, screenshot } from './browser.test-support.js';
import { ControlPlaneClient } from './control-plane-client.js';
import { startSandbox, type Sandbox } from './sandbox.js';

/**
 * The dashboard's two first journeys in a real browser (headless Chromium from Debian, driven by
 * playwright-core) against the sandbox: a provider finds every plan's preflight green; a customer searches
 * the marketplace, buys a plan, watches the VM become Running, stops and starts it, and adds a firewall
 * rule. Screenshots of each page visited are kept in .artifacts/screenshots/.
 */

const DASHBOARD_DIR = fileURLToPath(new URL('../../apps/dashboard/dist', import.meta.url));
const PASSWORD = 'sandbox-password';
const START_TIMEOUT_MS = 120_000;
const JOURNEY_TIMEOUT_MS = 180_000;
/** Order to Running goes through kube-sim, the operator and pve-sim (tasks of 250 ms). */
const RUNNING_TIMEOUT_MS = 90_000;
const STEP_TIMEOUT_MS = 20_000;

describe('the dashboard in a real browser', () => {
  let sandbox: Sandbox | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    // The dashboard is built by vitest's global setup (e2e/src/dashboard-global-setup.ts).
    // pve4: a Proxmox node not on sale yet, for the plan sold in a second region.
    sandbox = await startSandbox({ dashboardDir: DASHBOARD_DIR, log: () => undefined, spareProxmoxNodes: 1 });
    browser = await launchChromium();
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  async function signedIn(email: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
    if (browser === undefined || sandbox === undefined) throw new Error('the sandbox did not start');
    const context = await browser.newContext({ baseURL: sandbox.controlPlaneUrl, viewport });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Signed in: the banner offers to sign out (the navigation may be folded on a narrow screen).
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    return page;
  }

  function nav(page: Page, name: string) {
    return page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
  }

  it(
    'shows a provider every plan’s preflight green',
    async () => {
      const page = await signedIn('provider@sandbox.local');
      await page.getByRole('heading', { level: 1, name: 'Getting started' }).waitFor();
      await screenshot(page, 'provider-onboarding');
      await nav(page, 'Plans & preflight').click();
      await page.getByRole('heading', { level: 1, name: 'Plans and preflight' }).waitFor();
      const preflights = page.getByRole('status', { name: /^Preflight of / });
      await preflights.first().waitFor();
      const verdicts = await preflights.allTextContents();
      expect(verdicts).toHaveLength(3);
      for (const verdict of verdicts) expect(verdict).toContain('Marketplace ready');
      expect(verdicts.join(' ')).not.toContain('Not marketplace ready');
      await screenshot(page, 'provider-plans-preflight');
      for (const [link, name] of [
        ['Agents', 'provider-agents'],
        ['Platforms & nodes', 'provider-platforms-nodes'],
        ['IPAM', 'provider-ipam'],
        ['Cloud-init templates', 'provider-cloud-init-templates'],
        ['VM templates', 'provider-vm-templates'],
        ['Customer VMs', 'provider-customer-vms'],
      ] as const) {
        await nav(page, link).click();
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        await screenshot(page, name);
      }
      await page.context().close();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'lets a customer search, buy a plan, watch it run, stop and start it, and add a firewall rule',
    async () => {
      const page = await signedIn('customer@sandbox.local');
      await nav(page, 'Marketplace').click();
      await page.getByRole('heading', { level: 1, name: 'Marketplace' }).waitFor();
      const filters = page.getByRole('form', { name: 'Filter plans' });
      await filters.getByLabel('Minimum vCPUs').fill('2');
      await filters.getByLabel('In stock only').check();
      await filters.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('link', { name: 'Compare offers for SC-GC-2C-4G-40' }).waitFor();
      // The 1-vCPU plan is filtered out by the search.
      expect(await page.getByRole('link', { name: 'Compare offers for SC-GC-1C-1G-10' }).count()).toBe(0);
      await screenshot(page, 'customer-marketplace');

      await page.getByRole('link', { name: 'Compare offers for SC-GC-2C-4G-40' }).click();
      await page.getByRole('link', { name: 'Order Standard from Sandbox Hosting' }).click();
      await page.getByRole('heading', { level: 1, name: 'Order a VM' }).waitFor();
      const order = page.getByRole('form', { name: 'Order VM' });
      await order.getByLabel('Hostname').fill('web-1');
      await order.getByLabel('Password', { exact: true }).check();
      await order.getByLabel('Root password', { exact: true }).fill('a long root password');
      await order.getByLabel('Confirm root password').fill('a long root password');
      await screenshot(page, 'customer-order');
      await order.getByRole('button', { name: 'Order VM' }).click();

      await page.getByRole('heading', { level: 1, name: 'web-1' }).waitFor();
      const status = page.getByRole('status', { name: 'VM status' });
      await status.filter({ hasText: /^Running$/ }).waitFor({ timeout: RUNNING_TIMEOUT_MS });
      await screenshot(page, 'customer-vm-running');

      const power = page.getByRole('group', { name: 'Power' });
      await power.getByRole('button', { name: 'Stop', exact: true }).click();
      await status.filter({ hasText: /^Stopped$/ }).waitFor({ timeout: RUNNING_TIMEOUT_MS });
      await power.getByRole('button', { name: 'Start', exact: true }).click();
      await status.filter({ hasText: /^Running$/ }).waitFor({ timeout: RUNNING_TIMEOUT_MS });

      const firewall = page.getByRole('region', { name: 'Firewall' });
      await firewall.getByRole('button', { name: 'Create and attach ruleset' }).click();
      const rule = firewall.getByRole('form', { name: 'Add firewall rule' });
      await rule.getByLabel('Source addresses').fill('198.51.100.0/24');
      await rule.getByLabel('Destination port').fill('22');
      await rule.getByRole('button', { name: 'Add rule' }).click();
      const rules = firewall.getByRole('table', { name: /^Firewall rules of / });
      await rules.getByRole('row').filter({ hasText: '198.51.100.0/24' }).waitFor();
      expect(await rules.getByRole('row').filter({ hasText: '22' }).count()).toBeGreaterThan(0);
      await screenshot(page, 'customer-vm-firewall');

      await nav(page, 'My VMs').click();
      await page.getByRole('heading', { level: 1, name: 'My VMs' }).waitFor();
      await screenshot(page, 'customer-vms');
      await page.context().close();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'works on a narrow screen: the navigation folds behind a Menu button',
    async () => {
      const page = await signedIn('customer@sandbox.local', { width: 360, height: 740 });
      // The customer's start page first: landing there closes the menu, as any navigation does.
      await page.getByRole('heading', { level: 1, name: 'My VMs' }).waitFor();
      const menu = page.getByRole('button', { name: 'Menu' });
      await menu.click();
      await nav(page, 'SSH keys').click();
      await page.getByRole('heading', { level: 1, name: 'SSH keys' }).waitFor();
      await screenshot(page, 'customer-ssh-keys-narrow');
      await page.context().close();
    },
    JOURNEY_TIMEOUT_MS,
  );
  it(
    'creates a plan sold in two regions from the plan form',
    async () => {
      if (sandbox === undefined) throw new Error('the sandbox did not start');
      // A second region with the platform's spare Proxmox node, through the API as any client would.
      const api = new ControlPlaneClient(sandbox.controlPlaneUrl);
      const session = await api.call<{ token: string; organizationId: string }>(
        'POST',
        '/v1/auth/login',
        200,
        {
          body: { email: 'provider@sandbox.local', password: PASSWORD },
        },
      );
      const { nodes } = await api.call<{ nodes: { node: { platformId: string; regionId: string } }[] }>(
        'GET',
        '/v1/nodes',
        200,
        { as: session },
      );
      const existing = nodes[0]?.node;
      if (existing === undefined) throw new Error('the sandbox has no node');
      const amsterdam = await api.call<{ id: string }>('POST', '/v1/regions', 201, {
        as: session,
        body: { cityCountryId: 'nl-ams', datacenterId: 'own-facility' },
      });
      await api.call('POST', '/v1/node', 201, {
        as: session,
        body: {
          name: 'pve4',
          platformId: existing.platformId,
          regionId: amsterdam.id,
          vmStorageDestination: 'local-lvm',
          backupStorageDestination: 'local',
          backupStorageCompression: 'BACKUP_STORAGE_COMPRESSION_ZSTD',
          vmidSeed: 5000,
        },
      });

      const page = await signedIn('provider@sandbox.local');
      await nav(page, 'Plans & preflight').click();
      await page.getByRole('heading', { level: 1, name: 'Plans and preflight' }).waitFor();
      const form = page.getByRole('form', { name: 'Create plan' });
      await form.getByLabel('Plan name').fill('Two cities');
      await form.getByLabel('vCPUs').fill('3');
      await form.getByLabel('Monthly price').fill('9.50');
      const regions = form.getByRole('group', { name: 'Regions' });
      await regions.getByRole('checkbox', { name: /^Frankfurt/ }).check();
      await regions.getByRole('checkbox', { name: /^Amsterdam/ }).check();
      const nodeChoices = form.getByRole('group', { name: 'Nodes' });
      await nodeChoices.getByRole('checkbox', { name: /\(Amsterdam\)/ }).waitFor();
      // One region without a node of its own is named before anything is sent.
      await nodeChoices
        .getByRole('checkbox', { name: /\(Frankfurt\)/ })
        .first()
        .check();
      await form.getByRole('button', { name: 'Create plan' }).click();
      await form.getByText('Choose at least one node in Amsterdam: the plan sells there.').waitFor();
      await nodeChoices.getByRole('checkbox', { name: 'pve4 (Amsterdam)' }).check();
      await screenshot(page, 'provider-plan-form-two-regions');
      await form.getByRole('button', { name: 'Create plan' }).click();
      await page.getByRole('cell', { name: 'Frankfurt, Amsterdam' }).waitFor();

      const { plans } = await api.call<{ plans: { name: string; regionIds: string[] }[] }>(
        'GET',
        '/v1/plans?pageSize=100',
        200,
        { as: session },
      );
      expect(plans.find((p) => p.name === 'Two cities')?.regionIds).toEqual([
        existing.regionId,
        amsterdam.id,
      ]);
      await page.context().close();
    },
    JOURNEY_TIMEOUT_MS,
  );
});
