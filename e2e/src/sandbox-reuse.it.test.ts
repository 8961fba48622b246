import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { startSandbox, type Sandbox, type SandboxOptions } from './sandbox.js';
import { api, freePort, pveGet, signIn, waitForVm } from './sandbox.test-support.js';

/** Several starts one after another, and a VM ordered and run in between. */
const TEST_TIMEOUT_MS = 180_000;
const CONTROL_PLANE_LINE = /\[sandbox\] control plane on (http:\/\/\S+)/;

describe('a sandbox kept in a data folder', () => {
  let root: string;
  let dataDir: string;
  let running: Sandbox | undefined;
  const log: string[] = [];

  /** One start at a time, always closed, even when a test fails half way. */
  async function start(options: Omit<SandboxOptions, 'dataDir' | 'log'> = {}): Promise<Sandbox> {
    await running?.close();
    running = undefined;
    log.length = 0;
    running = await startSandbox({ ...options, dataDir, log: (line) => log.push(line) });
    return running;
  }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sandbox-reuse-'));
    dataDir = join(root, 'sandbox');
  });
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it(
    'answers /readyz 503 while it seeds and 200 once ready, and on a second start reuses everything instead of seeding again',
    async () => {
      // The first start, watched from outside: /readyz as soon as the control plane listens.
      const readiness: number[] = [];
      let watching = true;
      let watcher: Promise<void> | undefined;
      const poll = async (url: string) => {
        while (watching) {
          readiness.push(
            await fetch(`${url}/readyz`).then(
              (r) => r.status,
              () => 0,
            ),
          );
          await sleep(50);
        }
      };
      try {
        running = await startSandbox({
          dataDir,
          log: (line) => {
            log.push(line);
            const url = CONTROL_PLANE_LINE.exec(line)?.[1];
            if (url !== undefined) watcher = poll(url);
          },
        });
      } finally {
        watching = false;
        await watcher;
      }
      const first = running;
      expect(first.reused).toBe(false);
      expect(readiness[0]).toBe(503);
      expect((await fetch(`${first.controlPlaneUrl}/readyz`)).status).toBe(200);

      // A VM, so that there is a guest and a ProxmoxVM to find again.
      const customer = await signIn(first, first.credentials.customer);
      const ordered = await api(first, 'POST', '/v1/virtual-machines', {
        token: customer.token,
        body: {
          hostname: 'kept',
          planId: first.seeded.offer.plans[0]?.id,
          regionId: first.seeded.provider.region.id,
          distro: 'DISTRO_UBUNTU_24_04',
          password: 'a-password-of-my-own',
          idempotencyKey: randomUUID(),
        },
      });
      expect(ordered.status, JSON.stringify(ordered.body)).toBe(201);
      const vm = await waitForVm(
        first,
        customer.token,
        (ordered.body as { virtualMachine: { id: string } }).virtualMachine.id,
        'RUNNING',
        60_000,
      );

      const second = await start();
      expect(second.reused).toBe(true);
      expect(log.join('\n')).not.toContain('seeding');
      expect(second.seeded).toEqual(first.seeded);
      expect(second.credentials).toEqual(first.credentials);
      // Any port would do, so each simulator is where the control plane knows it from.
      expect([second.pveUrl, second.kubeUrl]).toEqual([first.pveUrl, first.kubeUrl]);
      for (const account of [
        second.credentials.provider,
        second.credentials.customer,
        second.credentials.staff,
      ])
        await signIn(second, account);
      const staff = await signIn(second, second.credentials.staff);
      const organizations = await api(second, 'GET', '/v1/staff/organizations?pageSize=100', {
        token: staff.token,
      });
      const names = (organizations.body as { organizations: { name: string }[] }).organizations.map(
        (o) => o.name,
      );
      expect(names.filter((n) => n === 'Sandbox Hosting')).toHaveLength(1);
      expect(names.filter((n) => n === 'Sandbox Customer')).toHaveLength(1);

      // The VM is still there and running, in the control plane and on pve-sim, and nothing was made twice.
      const again = await signIn(second, second.credentials.customer);
      expect(await waitForVm(second, again.token, vm.id, 'RUNNING', 1000)).toMatchObject({
        ipv4: vm.ipv4,
        ipv6: vm.ipv6,
      });
      const listed = await api(second, 'GET', '/v1/virtual-machines', { token: again.token });
      expect(listed.body).toMatchObject({ totalCount: 1 });
      const provider = await signIn(second, second.credentials.provider);
      const seen = await api(second, 'GET', `/v1/provider/virtual-machines/${vm.id}`, {
        token: provider.token,
      });
      expect(seen).toMatchObject({ status: 200, body: { virtualMachine: { id: vm.id } } });
      const guests = JSON.parse((await pveGet(second, '/cluster/resources?type=vm')).body) as {
        data: { name?: string; status: string }[];
      };
      expect(guests.data.filter((g) => g.name?.startsWith('NR-'))).toEqual([
        expect.objectContaining({ name: `NR-${vm.id}`, status: 'running' }),
      ]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'points the control plane at pve-sim where it listens now when asked to move it',
    async () => {
      const before = await start();
      const port = await freePort();
      const moved = await start({ pveListen: { host: '127.0.0.1', port } });
      expect(moved.reused).toBe(true);
      expect(moved.pveUrl).toBe(`https://127.0.0.1:${String(port)}`);
      expect(moved.pveUrl).not.toBe(before.pveUrl);
      expect(moved.seeded.provider.platform.endpointUrl).toBe(moved.pveUrl);
      const provider = await signIn(moved, moved.credentials.provider);
      // Online again: the forwarded metrics name the new endpoint, and the plans passed preflight with it.
      expect(await api(moved, 'GET', '/v1/platforms', { token: provider.token })).toMatchObject({
        body: { platforms: [{ endpointUrl: moved.pveUrl, serviceStatus: 'SERVICE_STATUS_ONLINE' }] },
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'seeds afresh on --reset, with the same demo logins',
    async () => {
      const before = await start();
      const reset = await start({ reset: true });
      expect(reset.reused).toBe(false);
      expect(reset.seeded.provider.organizationId).not.toBe(before.seeded.provider.organizationId);
      expect(reset.seeded.customer.organizationId).not.toBe(before.seeded.customer.organizationId);
      expect(reset.credentials.provider).toMatchObject({
        email: 'provider@sandbox.local',
        password: 'sandbox-password',
      });
      expect(reset.credentials.customer).toMatchObject({
        email: 'customer@sandbox.local',
        password: 'sandbox-password',
      });
      const customer = await signIn(reset, reset.credentials.customer);
      expect(await api(reset, 'GET', '/v1/virtual-machines', { token: customer.token })).toMatchObject({
        body: { totalCount: 0 },
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'refuses a seeded folder that lost its database, saying how to start over',
    async () => {
      await start();
      await running?.close();
      running = undefined;
      await rm(join(dataDir, 'pglite'), { recursive: true });
      const refusal = startSandbox({ dataDir, log: () => undefined });
      await expect(refusal).rejects.toMatchObject({ code: 'INCONSISTENT_DATA_DIR' });
      await expect(refusal).rejects.toThrow(/pglite is missing; start with --reset/);
    },
    TEST_TIMEOUT_MS,
  );
});
