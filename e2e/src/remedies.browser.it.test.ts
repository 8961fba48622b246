import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { launchChromium, screenshot } from './browser.test-support.js';
import { ControlPlaneClient } from './control-plane-client.js';
import { startSandbox, type Sandbox } from './sandbox.js';

/**
 * Advice must point at something: wherever the dashboard shows a remedy (a preflight check, a refusal in a
 * dialog), what it names can be done from there. Walked in a real browser against the sandbox, as a
 * provider who breaks the seeded setup and repairs it by following the advice alone.
 */

const DASHBOARD_DIR = fileURLToPath(new URL('../../apps/dashboard/dist', import.meta.url));
const PASSWORD = 'sandbox-password';
const START_TIMEOUT_MS = 120_000;
const JOURNEY_TIMEOUT_MS = 120_000;
const STEP_TIMEOUT_MS = 20_000;
const AGENT = 'sandbox-agent';
const PLATFORM = 'pve-sim';
const PREFLIGHT_ATTEMPTS = 10;
const run = promisify(execFile);

describe('remedies in the dashboard', () => {
  let sandbox: Sandbox | undefined;
  let browser: Browser | undefined;
  let dataDir: string | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'remedies-'));
    sandbox = await startSandbox({ dataDir, dashboardDir: DASHBOARD_DIR, log: () => undefined });
    browser = await launchChromium();
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });

  async function signedInProvider(): Promise<Page> {
    if (browser === undefined || sandbox === undefined) throw new Error('the sandbox did not start');
    const context = await browser.newContext({
      baseURL: sandbox.controlPlaneUrl,
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill('provider@sandbox.local');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    return page;
  }

  function nav(page: Page, name: string) {
    return page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
  }

  /**
   * Opens the plans page until the first plan's preflight shows `what` (preflight is re-evaluated just
   * after a change, perhaps after the page has read it), and returns that plan's preflight.
   */
  async function preflightShowing(page: Page, what: (preflight: Locator) => Locator): Promise<Locator> {
    await nav(page, 'Plans & preflight').click();
    for (let attempt = 0; ; attempt++) {
      await page.getByRole('heading', { level: 1, name: 'Plans and preflight' }).waitFor();
      const preflight = page.locator('section.preflight').first();
      try {
        await what(preflight).first().waitFor({ timeout: 5000 });
        return preflight;
      } catch (e: unknown) {
        if (attempt >= PREFLIGHT_ATTEMPTS) throw e;
        await page.reload();
      }
    }
  }

  /** A kubeconfig for the control plane's own service account on the agent cluster, as `nr` makes it. */
  async function controlPlaneKubeconfig(token?: string): Promise<string> {
    if (sandbox?.kubeconfigPath === undefined) throw new Error('the sandbox has no admin kubeconfig');
    const namespace = `${sandbox.seeded.provider.agent.id}-operator`;
    const minted =
      token ??
      (
        await run('kubectl', [
          ...['--kubeconfig', sandbox.kubeconfigPath],
          ...['create', 'token', 'noderings-control-plane', '-n', namespace],
        ])
      ).stdout.trim();
    // kubectl prints the admin kubeconfig as JSON, which is YAML to the control plane.
    const { stdout } = await run('kubectl', [
      ...['--kubeconfig', sandbox.kubeconfigPath],
      ...['config', 'view', '--raw', '-o', 'json'],
    ]);
    const admin = JSON.parse(stdout) as { users: { user: Record<string, string> }[] };
    for (const user of admin.users) user.user = { token: minted };
    return JSON.stringify(admin);
  }

  it(
    'offers, in the delete-agent dialog, to unassign the platform that blocks it, and links preflight to where an agent is linked again',
    async () => {
      const page = await signedInProvider();
      await nav(page, 'Agents').click();
      await page.getByRole('button', { name: `Delete agent ${AGENT}` }).click();
      const dialog = page.getByRole('dialog', { name: `Delete agent ${AGENT}?` });
      await dialog.getByRole('button', { name: 'Delete agent' }).click();
      await dialog.getByRole('alert').filter({ hasText: 'unassign it first' }).waitFor();
      await screenshot(page, 'remedy-delete-agent-blocked');
      // The remedy the refusal names is in the dialog itself.
      await dialog.getByRole('button', { name: `Unassign ${AGENT} from platform ${PLATFORM}` }).click();
      await dialog.getByText(`No platform uses ${AGENT}`).waitFor();
      expect(await dialog.getByRole('button', { name: /^Unassign / }).count()).toBe(0);
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      // Preflight now fails the link, and its remedy leads to the page where an agent is linked.
      const failedChecks = (p: Locator) => p.getByRole('list', { name: 'Failed agent checks' });
      const preflight = await preflightShowing(page, (p) =>
        failedChecks(p).getByText('Platform linked to an agent'),
      );
      const failed = failedChecks(preflight).first();
      await screenshot(page, 'remedy-preflight-agent-unlinked');
      const link = failed.getByRole('link', { name: `Link an agent to ${PLATFORM}` });
      expect(await link.getAttribute('href')).toBe(
        `/infrastructure/platforms-nodes#platform-${sandbox?.seeded.provider.platform.id ?? ''}`,
      );
      await link.click();
      await page.getByRole('heading', { level: 1, name: 'Platforms and nodes' }).waitFor();
      const card = page
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: `Platform ${PLATFORM}` }) });
      await card.getByLabel(`Agent for ${PLATFORM}`).selectOption({ label: AGENT });
      await card.getByRole('button', { name: `Link agent to ${PLATFORM}` }).click();
      await card.getByRole('button', { name: `Unassign ${AGENT} from platform ${PLATFORM}` }).waitFor();

      await preflightShowing(page, (p) =>
        p.getByRole('status', { name: /^Preflight of / }).filter({ hasText: /^Marketplace ready$/ }),
      );
      await page.context().close();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'leads a failed peering’s preflight remedy to the kubeconfig upload on the agent, which peers it again',
    async () => {
      const page = await signedInProvider();
      await nav(page, 'Agents').click();
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: AGENT }) });
      const upload = card.getByRole('form', { name: `Upload the kubeconfig of ${AGENT}` });
      // Not a kubeconfig at all: refused, naming the field, and nothing changes.
      await card.getByText('Upload kubeconfig', { exact: true }).click();
      await upload.getByLabel('Kubeconfig').fill('not: a kubeconfig');
      await upload.getByRole('button', { name: 'Upload and check' }).click();
      await upload
        .getByRole('alert')
        .filter({ hasText: /is not a kubeconfig/ })
        .waitFor();
      expect(await upload.getByLabel('Kubeconfig').getAttribute('aria-invalid')).toBe('true');
      await card.getByText('Peered', { exact: true }).waitFor();
      // A kubeconfig whose token the cluster refuses: kept, and the peering fails.
      await upload.getByLabel('Kubeconfig').fill(await controlPlaneKubeconfig('not-a-token'));
      await upload.getByRole('button', { name: 'Upload and check' }).click();
      await card.getByText('Peering failed', { exact: true }).waitFor();

      const failedChecks = (p: Locator) => p.getByRole('list', { name: 'Failed agent checks' });
      const preflight = await preflightShowing(page, (p) =>
        failedChecks(p).getByText(/upload the agent's kubeconfig/),
      );
      const failed = failedChecks(preflight).first();
      await screenshot(page, 'remedy-preflight-peering-failed');
      const link = failed.getByRole('link', { name: `Upload the kubeconfig of ${AGENT}` });
      expect(await link.getAttribute('href')).toBe(
        `/infrastructure/agents#kubeconfig-${sandbox?.seeded.provider.agent.id ?? ''}`,
      );
      await link.click();
      await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
      const form = page.getByRole('form', { name: `Upload the kubeconfig of ${AGENT}` });
      await form.getByLabel('Kubeconfig').fill(await controlPlaneKubeconfig());
      await form.getByRole('button', { name: 'Upload and check' }).click();
      await card.getByText('Peered', { exact: true }).waitFor();
      await screenshot(page, 'remedy-agent-peered-again');

      await preflightShowing(page, (p) =>
        p.getByRole('status', { name: /^Preflight of / }).filter({ hasText: /^Marketplace ready$/ }),
      );
      await page.context().close();
    },
    JOURNEY_TIMEOUT_MS,
  );
  it(
    'fixes a private, unpriced plan right at its failed preflight checks',
    async () => {
      if (sandbox === undefined) throw new Error('the sandbox did not start');
      const plan = sandbox.seeded.offer.plans[0];
      if (plan === undefined) throw new Error('no plan was seeded');
      // The provider's own mistakes, made through the API: the plan is private and free.
      const api = new ControlPlaneClient(sandbox.controlPlaneUrl);
      const { provider } = sandbox.credentials;
      const { token } = await api.call<{ token: string }>('POST', '/v1/auth/login', 200, {
        body: { email: provider.email, password: provider.password },
      });
      const as = { token, organizationId: provider.organizationId };
      const { plan: current } = await api.call<{
        plan: { planPrices: { billingPeriod: string; currency: string; unitAmount: string }[] };
      }>('GET', `/v1/plans/${plan.id}`, 200, { as });
      await api.call('PATCH', `/v1/plans/${plan.id}`, 200, {
        as,
        body: {
          isPublic: false,
          planPrices: current.planPrices.map((p) => ({
            billingPeriod: p.billingPeriod,
            currency: p.currency,
            unitAmount: '0',
          })),
        },
      });

      const page = await signedInProvider();
      const ofPlan = (p: Locator) => p.page().getByRole('region', { name: `Preflight: ${plan.name}` });
      await preflightShowing(page, (p) => ofPlan(p).getByText('Plan is public'));
      const checks = page
        .getByRole('region', { name: `Preflight: ${plan.name}` })
        .getByRole('list', { name: 'Failed plan checks' });
      await screenshot(page, 'remedy-plan-private-unpriced');
      await checks.getByRole('button', { name: `List ${plan.name} on the marketplace` }).click();
      const price = checks.getByRole('form', { name: `Price ${plan.name}` });
      await price.getByLabel(/^Price a month/).fill('0');
      await price.getByRole('button', { name: 'Set the price' }).click();
      await price.getByText('Enter a price above zero').waitFor();
      await price.getByLabel(/^Price a month/).fill('4.50');
      await price.getByRole('button', { name: 'Set the price' }).click();

      await preflightShowing(page, (p) =>
        ofPlan(p)
          .getByRole('status', { name: `Preflight of ${plan.name}` })
          .filter({ hasText: /^Marketplace ready$/ }),
      );
      const { plan: fixed } = await api.call<{
        plan: { isPublic: boolean; planPrices: { unitAmount: string }[] };
      }>('GET', `/v1/plans/${plan.id}`, 200, { as });
      expect(fixed.isPublic).toBe(true);
      expect(Number(fixed.planPrices[0]?.unitAmount)).toBe(4.5);
      await page.context().close();
    },
    JOURNEY_TIMEOUT_MS,
  );
  // Last: it deletes a node of the sandbox.
  it(
    'lists, in the delete-node dialog, the VM templates and plans that keep the node, with a way out of each',
    async () => {
      if (sandbox === undefined) throw new Error('the sandbox did not start');
      const node = sandbox.seeded.provider.nodes.at(-1);
      if (node === undefined) throw new Error('no node was seeded');
      const page = await signedInProvider();
      await nav(page, 'Platforms & nodes').click();
      await page.getByRole('button', { name: `Delete node ${node.name}` }).click();
      const dialog = page.getByRole('dialog', { name: `Delete node ${node.name}?` });
      await dialog.getByRole('button', { name: 'Delete node' }).click();
      await dialog
        .getByRole('alert')
        .filter({ hasText: 'delete those templates and take the node out of those plans first' })
        .waitFor();
      await screenshot(page, 'remedy-delete-node-blocked');
      const templates = dialog.getByRole('list', { name: `VM templates on ${node.name}` });
      const plans = dialog.getByRole('list', { name: `Plans on ${node.name}` });
      await templates.getByRole('button').first().waitFor();
      while ((await templates.getByRole('button').count()) > 0) {
        const before = await templates.getByRole('button').count();
        await templates.getByRole('button').first().click();
        await expect.poll(() => templates.getByRole('button').count()).toBeLessThan(before);
      }
      for (const plan of sandbox.seeded.offer.plans) {
        await plans.getByRole('button', { name: `Take ${node.name} out of plan ${plan.name}` }).click();
        await plans
          .getByRole('button', { name: `Take ${node.name} out of plan ${plan.name}` })
          .waitFor({ state: 'detached' });
      }
      await dialog.getByText(`Nothing else uses ${node.name}: it can be deleted.`).waitFor();
      await dialog.getByRole('button', { name: 'Delete node' }).click();
      await page.getByRole('heading', { name: `Node ${node.name}` }).waitFor({ state: 'detached' });
      await page.context().close();
    },
    JOURNEY_TIMEOUT_MS,
  );
});
