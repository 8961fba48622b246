import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import {
  startTestControlPlane,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { SecretBox } from '../../crypto/secret-box.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { createReadyOffer, settlePreflight, type ReadyOffer } from '../preflight/preflight.test-support.js';
import { cloudInitAssociatedData } from './virtual-machine.service.js';

interface VmView {
  id: string;
  hostname: string;
  distro: string;
  tags: string[];
  operationStatus: string;
  provisioningState: string;
  cpu: number;
  memory: number;
  storage: number;
  providerName: string;
  regionCity: string;
  ipv4: string | null;
  ipv6: string | null;
  planCode: string;
}

/** An OpenSSH ed25519 public key line: the key type and the 32-byte key, each length-prefixed. */
function sshPublicKey(comment: string): string {
  const { x } = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
  const field = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(Buffer.from(x ?? '', 'base64url'))]);
  return `ssh-ed25519 ${blob.toString('base64')} ${comment}`;
}

describe.each(DATABASE_KINDS)('ordering VMs on the %s database', (kind) => {
  const secretKey = randomBytes(32);
  const box = new SecretBox(secretKey);
  let t: TestControlPlane;
  let offer: ReadyOffer;
  beforeAll(async () => {
    t = await startTestControlPlane(kind, { secretKey });
    offer = await createReadyOffer(t, {
      ipv6: true,
      node: { cpuCores: 64, memoryGib: 256, storageGib: 2000 },
    });
  }, 60_000);
  afterAll(() => t.close());

  async function customerWithKey(): Promise<
    Caller & { organizationId: string; keyId: string; publicKey: string }
  > {
    const customer = await t.register('ORGANIZATION_TYPE_CLIENT');
    const publicKey = sshPublicKey('alice@laptop');
    const key = await t.call<{ sshKey: { id: string } }>('POST', '/v1/ssh-keys', {
      as: customer,
      body: { name: 'laptop', publicKey },
    });
    expect(key.status).toBe(201);
    return { ...customer, keyId: key.body.sshKey.id, publicKey };
  }

  function orderBody(overrides: Record<string, unknown> = {}) {
    return {
      hostname: 'web-1.example.com',
      planId: offer.planId,
      regionId: offer.seller.regionId,
      distro: 'DISTRO_UBUNTU_24_04',
      tags: ['web'],
      idempotencyKey: randomUUID(),
      ...overrides,
    };
  }

  async function stored(id: string) {
    return t.cp.db.selectFrom('virtual_machines').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  it('turns an order into a VM with its node, addresses, MAC and VMID, and keeps secrets out of the order', async () => {
    const customer = await customerWithKey();
    const response = await t.call<{ virtualMachine: VmView }>('POST', '/v1/virtual-machines', {
      as: customer,
      body: orderBody({ sshKeyIds: [customer.keyId] }),
    });
    expect(response.status).toBe(201);
    const vm = response.body.virtualMachine;
    expect(vm).toMatchObject({
      hostname: 'web-1.example.com',
      distro: 'DISTRO_UBUNTU_24_04',
      tags: ['web'],
      operationStatus: 'OPERATION_STATUS_CREATED',
      provisioningState: 'PENDING',
      cpu: 2,
      memory: 4096,
      storage: 40,
      planCode: 'SC-GC-2C-4G-40',
      ipv4: expect.stringMatching(/^10\.0\.0\.\d+$/) as unknown,
      ipv6: expect.stringMatching(/^2001:db8:/) as unknown,
    });

    const row = await stored(vm.id);
    const spec = row.spec as {
      vmid: number;
      network: Record<string, unknown>;
      node: string;
      templateVmid: number;
    };
    expect(spec).toMatchObject({
      vmId: vm.id,
      vmid: expect.any(Number) as unknown,
      templateVmid: 9000,
      memoryMiB: 4096,
      disk: { storage: 'local-lvm', sizeGiB: 40 },
      network: {
        mac: expect.stringMatching(/^BC:24:11:[0-9A-F]{2}:[0-9A-F]{2}:[0-9A-F]{2}$/) as unknown,
        ipv4: { address: `${vm.ipv4 ?? ''}/24`, gateway: '10.0.0.1' },
        ipv6: { gateway: '2001:db8::1' },
      },
    });
    expect(spec.vmid).toBeGreaterThanOrEqual(100);
    const order = JSON.stringify(row.spec);
    expect(order).not.toContain(customer.publicKey.split(' ')[1]);
    expect(order).not.toMatch(/password|ssh-ed25519|\$6\$/i);

    const cloudInit = JSON.parse(box.open(row.cloud_init_ciphertext, cloudInitAssociatedData(vm.id))) as {
      userData: string;
      networkData?: string;
    };
    expect(cloudInit.userData).toContain(customer.publicKey);
    expect(cloudInit.userData).toContain('web-1.example.com');
  });

  it('keeps a password only as a SHA-512-crypt hash', async () => {
    const customer = await t.register('ORGANIZATION_TYPE_CLIENT');
    const password = 'correct horse battery staple';
    const response = await t.call<{ virtualMachine: VmView }>('POST', '/v1/virtual-machines', {
      as: customer,
      body: orderBody({ password }),
    });
    expect(response.status).toBe(201);
    const row = await stored(response.body.virtualMachine.id);
    const cloudInit = box.open(row.cloud_init_ciphertext, cloudInitAssociatedData(row.id));
    expect(cloudInit).toMatch(/\$6\$rounds=\d+\$/);
    expect(cloudInit).not.toContain(password);
    expect(t.logLines.join('\n')).not.toContain(password);
  });

  it('answers a replayed order with the VM it made, and refuses the key for another order', async () => {
    const customer = await customerWithKey();
    const body = orderBody({ sshKeyIds: [customer.keyId] });
    const replies = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.call<{ virtualMachine: VmView }>('POST', '/v1/virtual-machines', { as: customer, body }),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(replies.map((r) => r.body.virtualMachine.id)).size).toBe(1);
    const again = await t.call<{ virtualMachine: VmView }>('POST', '/v1/virtual-machines', {
      as: customer,
      body,
    });
    expect(again.status).toBe(200);
    const rows = await t.cp.db
      .selectFrom('virtual_machines')
      .select('id')
      .where('client_organization_id', '=', customer.organizationId)
      .execute();
    expect(rows).toHaveLength(1);
    const claims = await t.cp.db
      .selectFrom('vm_claims')
      .select('id')
      .where('client_organization_id', '=', customer.organizationId)
      .execute();
    expect(claims).toHaveLength(1);

    const other = await t.call('POST', '/v1/virtual-machines', {
      as: customer,
      body: { ...body, hostname: 'other' },
    });
    expect(other.status).toBe(409);
  });

  it('refuses orders it cannot fulfil, naming why, and takes nothing', async () => {
    const customer = await customerWithKey();
    const cases: [Record<string, unknown>, number][] = [
      [orderBody(), 400],
      [orderBody({ sshKeyIds: [customer.keyId], password: 'a long enough password' }), 400],
      [orderBody({ sshKeyIds: [customer.keyId], hostname: '-bad-' }), 400],
      [orderBody({ sshKeyIds: [customer.keyId], idempotencyKey: '' }), 400],
      [orderBody({ sshKeyIds: [customer.keyId], planId: randomUUID() }), 404],
      [orderBody({ sshKeyIds: [customer.keyId], distro: 'DISTRO_DEBIAN_13' }), 412],
      [orderBody({ sshKeyIds: [customer.keyId], regionId: randomUUID() }), 400],
      [orderBody({ sshKeyIds: [randomUUID()] }), 404],
    ];
    for (const [body, status] of cases) {
      const response = await t.call('POST', '/v1/virtual-machines', { as: customer, body });
      expect({ body, status: response.status }).toEqual({ body, status });
    }
    const claims = await t.cp.db
      .selectFrom('vm_claims')
      .select('id')
      .where('client_organization_id', '=', customer.organizationId)
      .execute();
    expect(claims).toEqual([]);
  });

  it('sells only plans the marketplace lists: an unpublished plan is not found, even by its provider', async () => {
    const hidden = await createReadyOffer(t, { seller: offer.seller, plan: { isPublic: false, vcpus: 1 } });
    const customer = await customerWithKey();
    const body = (planId: string) => orderBody({ planId, sshKeyIds: [customer.keyId] });
    const listed = await t.call('GET', `/v1/marketplace/plans/${hidden.planId}`, { as: customer });
    expect(listed.status).toBe(404);
    const refused = await t.call<{ message: string }>('POST', '/v1/virtual-machines', {
      as: customer,
      body: body(hidden.planId),
    });
    expect(refused.status).toBe(404);
    expect(refused.body.message).not.toContain('template');
    const ownOrder = await t.call('POST', '/v1/virtual-machines', {
      as: offer.seller.provider,
      body: orderBody({ planId: hidden.planId, password: 'a long enough password' }),
    });
    expect(ownOrder.status).toBe(404);
    // The provider still sees and edits its own plan; published, it sells.
    const own = await t.call('GET', `/v1/plans/${hidden.planId}`, { as: offer.seller.provider });
    expect(own.status).toBe(200);
    const published = await t.call('PATCH', `/v1/plans/${hidden.planId}`, {
      as: offer.seller.provider,
      body: { isPublic: true },
    });
    expect(published.status).toBe(200);
    await settlePreflight(t, offer.seller.provider);
    const sold = await t.call('POST', '/v1/virtual-machines', { as: customer, body: body(hidden.planId) });
    expect(sold.status).toBe(201);
    const claims = await t.cp.db
      .selectFrom('vm_claims')
      .select('plan_id')
      .where('client_organization_id', 'in', [customer.organizationId, offer.seller.provider.organizationId])
      .execute();
    expect(claims).toEqual([{ plan_id: hidden.planId }]);
  });

  it('shows customers their own VMs only, and providers the VMs on their infrastructure', async () => {
    const customer = await customerWithKey();
    const created = await t.call<{ virtualMachine: VmView }>('POST', '/v1/virtual-machines', {
      as: customer,
      body: orderBody({ sshKeyIds: [customer.keyId] }),
    });
    const id = created.body.virtualMachine.id;
    const stranger = await t.register('ORGANIZATION_TYPE_CLIENT');
    expect((await t.call('GET', `/v1/virtual-machines/${id}`, { as: stranger })).status).toBe(404);
    expect((await t.call('POST', `/v1/virtual-machines/${id}:stop`, { as: stranger, body: {} })).status).toBe(
      404,
    );
    const list = await t.call<{ virtualMachines: VmView[] }>('GET', '/v1/virtual-machines', { as: customer });
    expect(list.body.virtualMachines.map((v) => v.id)).toEqual([id]);

    const provider = await t.call<{ virtualMachine: VmView & { vmid: number; macAddress: string } }>(
      'GET',
      `/v1/provider/virtual-machines/${id}`,
      { as: offer.seller.provider },
    );
    expect(provider.status).toBe(200);
    expect(provider.body.virtualMachine).toMatchObject({ id, clientOrganizationId: customer.organizationId });
    expect(JSON.stringify(provider.body)).not.toContain(customer.publicKey.split(' ')[1]);
    const otherProvider = await t.verifiedProvider();
    expect((await t.call('GET', `/v1/provider/virtual-machines/${id}`, { as: otherProvider })).status).toBe(
      404,
    );
    expect((await t.call('GET', '/v1/provider/virtual-machines', { as: customer })).status).toBe(403);
  });

  it("tells the customer plainly that an order failed, and only the provider Proxmox's words", async () => {
    const customer = await customerWithKey();
    const created = await t.call<{ virtualMachine: VmView }>('POST', '/v1/virtual-machines', {
      as: customer,
      body: orderBody({ sshKeyIds: [customer.keyId] }),
    });
    const id = created.body.virtualMachine.id;
    // The running dispatcher tries the new order at once (this agent has no cluster yet) and records
    // why it waits; the report below is written after that attempt, as it would come, so the attempt's
    // late write cannot overwrite it.
    await vi.waitFor(
      async () => {
        const attempted = await stored(id);
        if (attempted.dispatch_attempts === 0 || attempted.lease_owner !== null)
          throw new Error('not tried yet');
      },
      { timeout: 20_000, interval: 50 },
    );
    const row = await stored(id);
    const detail = `template VMID 424242 does not exist on node 'pve1': Configuration file 'nodes/pve1/qemu-server/424242.conf' does not exist`;
    // What status sync records when the operator reports the order failed for good.
    await t.cp.db
      .updateTable('virtual_machines')
      .set({
        dispatched_generation: row.generation,
        dispatch_error: '',
        observed_phase: 'Failed',
        observed_message: detail,
        observed_generation: row.generation,
        observed_at: new Date(),
      })
      .where('id', '=', id)
      .execute();

    const seen = await t.call<{ virtualMachine: VmView & { statusMessage: string } }>(
      'GET',
      `/v1/virtual-machines/${id}`,
      { as: customer },
    );
    expect(seen.body.virtualMachine.provisioningState).toBe('FAILED');
    expect(seen.body.virtualMachine.statusMessage).toBe(
      'The provider could not create this VM. Delete it and order again; the provider has been told why.',
    );
    const listed = await t.call('GET', '/v1/virtual-machines', { as: customer });
    expect(JSON.stringify(listed.body)).not.toMatch(/424242|pve1|Configuration file/);

    const provider = await t.call<{ virtualMachine: { statusMessage: string; failureDetail: string } }>(
      'GET',
      `/v1/provider/virtual-machines/${id}`,
      { as: offer.seller.provider },
    );
    expect(provider.body.virtualMachine).toMatchObject({ statusMessage: detail, failureDetail: detail });
  });

  it('keeps a failed, released order listed as failed until its customer deletes it', async () => {
    const customer = await customerWithKey();
    const created = await t.call<{ virtualMachine: VmView }>('POST', '/v1/virtual-machines', {
      as: customer,
      body: orderBody({ sshKeyIds: [customer.keyId] }),
    });
    const id = created.body.virtualMachine.id;
    // What the dispatcher leaves once a failed order's ProxmoxVM is gone and its claim released.
    await t.cp.db
      .updateTable('virtual_machines')
      .set({
        desired_state: 'ABSENT',
        failed_at: new Date(),
        failure_detail: 'template VMID 424242 does not exist',
        deleted_at: new Date(),
      })
      .where('id', '=', id)
      .execute();
    const listed = await t.call<{ virtualMachines: VmView[] }>('GET', '/v1/virtual-machines', {
      as: customer,
    });
    expect(listed.body.virtualMachines.map((v) => [v.id, v.provisioningState])).toEqual([[id, 'FAILED']]);

    const deleted = await t.call<{ virtualMachine: VmView }>('DELETE', `/v1/virtual-machines/${id}`, {
      as: customer,
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body.virtualMachine.provisioningState).toBe('DELETED');
    const after = await t.call<{ virtualMachines: VmView[] }>('GET', '/v1/virtual-machines', {
      as: customer,
    });
    expect(after.body.virtualMachines).toEqual([]);
  });

  it('records power wishes, tags and deletion as new generations for the dispatcher', async () => {
    const customer = await customerWithKey();
    const created = await t.call<{ virtualMachine: VmView }>('POST', '/v1/virtual-machines', {
      as: customer,
      body: orderBody({ sshKeyIds: [customer.keyId] }),
    });
    const id = created.body.virtualMachine.id;
    expect((await stored(id)).generation).toBe(1);
    expect((await t.call('POST', `/v1/virtual-machines/${id}:stop`, { as: customer, body: {} })).status).toBe(
      200,
    );
    expect(await stored(id)).toMatchObject({ desired_power_state: 'Stopped', generation: 2 });
    await t.call('POST', `/v1/virtual-machines/${id}:restart`, { as: customer, body: {} });
    expect(await stored(id)).toMatchObject({ desired_power_state: 'Running', generation: 3 });
    expect((await stored(id)).reboot_requested_at).not.toBeNull();
    const tagged = await t.call<{ virtualMachine: VmView }>('PATCH', `/v1/virtual-machines/${id}`, {
      as: customer,
      body: { addTags: ['db', 'prod'], removeTags: ['web'] },
    });
    expect(tagged.body.virtualMachine.tags).toEqual(['db', 'prod']);

    const deleted = await t.call<{ virtualMachine: VmView }>('DELETE', `/v1/virtual-machines/${id}`, {
      as: customer,
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body.virtualMachine.provisioningState).toBe('DELETING');
    expect(
      (await t.call('POST', `/v1/virtual-machines/${id}:start`, { as: customer, body: {} })).status,
    ).toBe(412);
    // Nothing is released before the provider's cluster reports the VM gone.
    const claim = await t.cp.db
      .selectFrom('vm_claims')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(claim.status).toBe('ACTIVE');
  });
});
