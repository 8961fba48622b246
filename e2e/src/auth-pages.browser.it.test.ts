import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { launchChromium, screenshot } from './browser.test-support.js';
import { startSandbox, type Sandbox } from './sandbox.js';
import { DEMO_PASSWORD, PROVIDER_EMAIL } from './sandbox-seed.js';

/**
 * The register and sign-in pages in a real browser against the sandbox: what the API refuses about a
 * password, and its sign-in throttle, reach the person at the form.
 */

const DASHBOARD_DIR = fileURLToPath(new URL('../../apps/dashboard/dist', import.meta.url));
const START_TIMEOUT_MS = 120_000;
const JOURNEY_TIMEOUT_MS = 90_000;
const STEP_TIMEOUT_MS = 20_000;
/** Enough tries to meet a wait however slowly the browser types (after five, waits double from 1 s). */
const MAX_SIGN_IN_TRIES = 12;

describe('the account pages in a real browser', () => {
  let sandbox: Sandbox | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    // The dashboard is built by vitest's global setup (e2e/src/dashboard-global-setup.ts).
    sandbox = await startSandbox({
      dashboardDir: DASHBOARD_DIR,
      forwardMetrics: false,
      log: () => undefined,
    });
    browser = await launchChromium();
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  }, START_TIMEOUT_MS);

  async function open(path: string): Promise<Page> {
    if (browser === undefined || sandbox === undefined) throw new Error('the sandbox did not start');
    const context = await browser.newContext({ baseURL: sandbox.controlPlaneUrl });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    const page = await context.newPage();
    await page.goto(path);
    return page;
  }

  it(
    'shows why the API refused a password beside the field, and registers with a better one',
    async () => {
      const page = await open('/register');
      const form = page.getByRole('form', { name: 'Create account' });
      await form.getByLabel('Customer: I buy VMs').check();
      await form.getByLabel('Organisation name').fill('Browser Test Ltd');
      await form.getByLabel('Email').fill(`browser-${randomUUID()}@example.test`);
      // Long enough for the form, and guessable for the API.
      await form.getByLabel('Password', { exact: true }).fill('passwordpassword');
      await form.getByLabel('Confirm password').fill('passwordpassword');
      await form.getByRole('button', { name: 'Create account' }).click();
      const refusal = form.getByText('is too easy to guess: it repeats a character or a pattern', {
        exact: false,
      });
      await refusal.first().waitFor();
      await screenshot(page, 'register-weak-password');
      expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);

      await form.getByLabel('Password', { exact: true }).fill('purple monkey dishwasher');
      await form.getByLabel('Confirm password').fill('purple monkey dishwasher');
      await form.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'tells someone whose sign-ins are being slowed how long to wait',
    async () => {
      const page = await open('/login');
      const form = page.getByRole('form', { name: 'Sign in' });
      await form.getByLabel('Email').fill('customer@sandbox.local');
      let status = 0;
      for (let i = 0; i < MAX_SIGN_IN_TRIES && status !== 429; i++) {
        await form.getByLabel('Password').fill(`not the password ${String(i)}`);
        const [answer] = await Promise.all([
          page.waitForResponse((r) => r.url().endsWith('/v1/auth/login')),
          form.getByRole('button', { name: 'Sign in' }).click(),
        ]);
        status = answer.status();
      }
      expect(status).toBe(429);
      await form
        .getByRole('alert')
        .getByText(/Too many failed sign-in attempts: try again in \d+ seconds?\./)
        .waitFor();
      await screenshot(page, 'sign-in-slowed');
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    "approves nr's device sign-in: the device's link leads through sign-in to the approval, and its poll gets a session",
    async () => {
      if (sandbox === undefined) throw new Error('the sandbox did not start');
      const base = sandbox.controlPlaneUrl;
      const form = (path: string, fields: Record<string, string>) =>
        fetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields).toString(),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, string> }));
      const started = await form('/v1/oauth/device_authorization', { client_id: 'nr-cli' });
      expect(started.status).toBe(200);
      const link = new URL(started.body.verification_uri_complete ?? '');
      expect(link.pathname).toBe('/device');

      const page = await open(`${link.pathname}${link.search}`);
      const signIn = page.getByRole('form', { name: 'Sign in' });
      await signIn.getByLabel('Email').fill(PROVIDER_EMAIL);
      await signIn.getByLabel('Password').fill(DEMO_PASSWORD);
      await signIn.getByRole('button', { name: 'Sign in' }).click();
      // Back on the device page with the code from the link: the user sees who asks, with the same code.
      await page.getByText('nr, the NodeRings CLI', { exact: true }).waitFor();
      await page.getByText(started.body.user_code ?? '', { exact: true }).waitFor();
      await screenshot(page, 'device-approve');
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('status').getByText('The device is signed in as you.').waitFor();

      const granted = await form('/v1/oauth/token', {
        grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
        device_code: started.body.device_code ?? '',
        client_id: 'nr-cli',
      });
      expect(granted.status).toBe(200);
      const organizations = await fetch(`${base}/v1/organizations`, {
        headers: { authorization: `Bearer ${granted.body.access_token ?? ''}` },
      });
      expect(organizations.status).toBe(200);
    },
    JOURNEY_TIMEOUT_MS,
  );
});
