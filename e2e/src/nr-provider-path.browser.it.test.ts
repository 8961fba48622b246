import { randomUUID } from 'node:crypto';

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { launchChromium, screenshot } from './browser.test-support.js';
import { ensureDashboardBuilt } from './dashboard-build.js';
import { waitForMarketplaceReady } from './marketplace-readiness.js';
import { seedOffer, type ProxmoxTemplate } from './offer-seed.js';
import { registerArgs, startRegisterWorld, type RegisterWorld } from './register-world.js';

const JOURNEY_TIMEOUT_MS = 300_000;
const RUNNING_TIMEOUT_MS = 120_000;

let world: RegisterWorld | undefined;
let browser: Browser | undefined;
beforeAll(async () => {
  world = await startRegisterWorld({ dashboardDir: await ensureDashboardBuilt(() => undefined) });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await world?.close();
});

/**
 * A provider's path as seed 000 tells it, with nothing seeded but the provider's verified organisation
 * and a region: `nr login` approved in the dashboard, `nr cluster register --register-platform` on a
 * plain (simulated) host, then a plan on the nodes it found passes preflight and a customer's order runs.
 */
describe("a provider's path with nr", () => {
  it(
    'signs in, registers the cluster with its platform and nodes, and sells a VM that reaches Running',
    async () => {
      if (world === undefined || browser === undefined) throw new Error('beforeAll did not start the world');
      const w = world;
      const page = await browser.newPage({ baseURL: w.cp.url });

      // 1. nr login: the device flow, approved in the dashboard by the signed-in provider.
      let approving: Promise<void> | undefined;
      const login = await w.nr(['login', '--api-url', w.cp.url], {
        signedIn: false,
        onStderr: (stderr) => {
          const link = /\(or open (\S+)\)/.exec(stderr)?.[1];
          if (link === undefined || approving !== undefined) return;
          approving = (async () => {
            await page.goto(link);
            const signIn = page.getByRole('form', { name: 'Sign in' });
            await signIn.getByLabel('Email').fill(w.account.email);
            await signIn.getByLabel('Password').fill(w.account.password);
            await signIn.getByRole('button', { name: 'Sign in' }).click();
            await page.getByText('nr, the NodeRings CLI', { exact: true }).waitFor();
            await screenshot(page, 'nr-login-approve');
            await page.getByRole('button', { name: 'Approve' }).click();
            await page.getByRole('status').getByText('The device is signed in as you.').waitFor();
          })();
        },
      });
      await approving;
      expect(login.code, login.stderr).toBe(0);

      // 2. Register, with what nr login stored (no NR_TOKEN).
      const register = await w.nr([...registerArgs(w), '--output', 'json'], { signedIn: false });
      expect(register.code, register.stderr).toBe(0);
      const { agent_id: agentId } = JSON.parse(register.stdout) as { agent_id: string };
      const verify = await w.nr(['cluster', 'verify'], { signedIn: false });
      expect(verify.code, verify.stdout).toBe(0);

      // 3. The provider's offer on the nodes register created, as the dashboard would make it.
      const { platforms } = await w.api.call<{
        platforms: { id: string; name: string; endpointUrl: string }[];
      }>('GET', '/v1/platforms', 200, { as: w.provider });
      const platform = platforms[0];
      if (platform === undefined) throw new Error('register made no platform');
      const { nodes } = await w.api.call<{
        nodes: { node: { id: string; name: string; vmidSeed: number } }[];
      }>('GET', `/v1/nodes?platformId=${platform.id}`, 200, { as: w.provider });
      const templates: ProxmoxTemplate[] = Object.values(w.pve.state.vms)
        .filter((vm) => vm.config.template === '1')
        .map((vm) => ({ node: vm.node, vmid: vm.vmid, name: vm.config.name ?? '' }));
      const offer = await seedOffer(w.api, w.provider, {
        seeded: {
          organizationId: w.provider.organizationId,
          organizationName: 'Register Hosting',
          region: { id: w.regionId, city: 'Frankfurt', datacenter: 'Own facility' },
          agent: { id: agentId, name: 'agent-a' },
          platform,
          nodes: nodes.map((n) => n.node),
        },
        templates,
      });
      // Preflight passes once the stack's metrics have reached the control plane (platform online).
      await waitForMarketplaceReady(
        w.api,
        w.provider,
        offer.plans.map((p) => p.id),
        { timeoutMs: 120_000 },
      );

      // 4. A customer buys the cheapest plan; the order reaches the agent's operator and runs.
      const customer = await w.api.call<{ token: string }>('POST', '/v1/auth/register', 201, {
        body: {
          email: `customer-${randomUUID()}@register.test`,
          password: 'customer password 1234',
          organizationName: 'A Customer',
          organizationType: 'ORGANIZATION_TYPE_CLIENT',
        },
      });
      const plan = offer.plans[0];
      const { virtualMachine } = await w.api.call<{ virtualMachine: { id: string } }>(
        'POST',
        '/v1/virtual-machines',
        201,
        {
          as: customer,
          body: {
            hostname: 'first-customer',
            planId: plan?.id,
            regionId: w.regionId,
            distro: 'DISTRO_UBUNTU_24_04',
            password: 'a customer password',
            idempotencyKey: randomUUID(),
          },
        },
      );
      const deadline = Date.now() + RUNNING_TIMEOUT_MS;
      let state = '';
      while (Date.now() < deadline) {
        const vm = await w.api.call<{ virtualMachine: { provisioningState: string } }>(
          'GET',
          `/v1/virtual-machines/${virtualMachine.id}`,
          200,
          { as: customer },
        );
        state = vm.virtualMachine.provisioningState;
        if (state === 'RUNNING' || state === 'FAILED') break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(state).toBe('RUNNING');
      // The VM runs on the provider's Proxmox, named NR-{uuid} by the operator register installed.
      expect(Object.values(w.pve.state.vms).some((vm) => vm.config.name === `NR-${virtualMachine.id}`)).toBe(
        true,
      );
    },
    JOURNEY_TIMEOUT_MS,
  );
});
