import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, expect, it } from 'vitest';

import {
  changeVm,
  claimStatus,
  eventually,
  newWorld,
  openTestDb,
  orderVm,
  recordingLogger,
  seedSeller,
  startAgentClusterSim,
  vmRow,
  type AgentClusterSim,
  type TestDb,
} from './dispatch.test-support.js';
import { Dispatcher } from './dispatcher.js';
import { startSimulatedProvider, type SimulatedProvider } from './simulated-provider.test-support.js';

// The whole way down: the dispatcher's order reaches the real proxmox-operator through kube-sim, the
// operator clones the guest on pve-sim, and what it reports comes back to the VM's row; the deletion
// goes back the same way.

let testDb: TestDb | undefined;
let kube: AgentClusterSim | undefined;
let provider: SimulatedProvider | undefined;

beforeAll(async () => {
  testDb = await openTestDb();
  kube = await startAgentClusterSim();
  provider = await startSimulatedProvider(kube);
});

afterAll(async () => {
  try {
    await provider?.close();
    await kube?.close();
  } finally {
    await testDb?.close();
  }
});

it(
  'orders a VM the operator runs on Proxmox, reports it Running, and deletes it',
  { timeout: 120_000 },
  async () => {
    if (testDb === undefined || kube === undefined || provider === undefined) throw new Error('not started');
    const { db } = testDb;
    const world = newWorld(db, await seedSeller(db, 'pve1'));
    const namespace = `${world.seller.agentId}-operator`;
    const kubeconfig = await kube.peerAgent(world.seller.agentId);
    await provider.startOperator(world.seller.agentId);
    const operator = provider;

    const dispatcher = new Dispatcher({
      allowPrivateDestinations: true,
      db,
      secretBox: world.secretBox,
      kubeconfigOf: () => Promise.resolve(kubeconfig),
      releaseClaim: (claimId) => world.claims.release(claimId),
      now: () => new Date(),
      logger: recordingLogger(),
      owner: `e2e-${randomUUID()}`,
      options: { pollIntervalMs: 200, resyncIntervalMs: 500, retryBaseMs: 200, maxBackoffMs: 2_000 },
    });
    dispatcher.start();
    try {
      const { id } = await orderVm(world);
      const running = await eventually(
        async () => {
          const row = await vmRow(db, id);
          expect(row.observed_phase, operator.output()).toBe('Running');
          return row;
        },
        60_000,
        200,
      );
      expect(running.observed_power_state).toBe('Running');
      expect(running.observed_conditions).toContainEqual(
        expect.objectContaining({ type: 'Ready', status: 'True' }),
      );
      expect(await provider.guestNames()).toContain(`NR-${id}`);

      await changeVm(db, id, { desiredState: 'ABSENT' });
      dispatcher.kick();
      await eventually(
        async () => {
          expect((await vmRow(db, id)).deleted_at, operator.output()).toBeInstanceOf(Date);
        },
        60_000,
        200,
      );
      expect(await claimStatus(db, id)).toBe('RELEASED');
      expect(await provider.guestNames()).not.toContain(`NR-${id}`);
      expect(await kube.admin.secrets.find({ namespace, name: `nr-${id}-cloudinit` })).toBeUndefined();
    } finally {
      await dispatcher.stop();
    }
  },
);
