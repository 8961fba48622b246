import { createHash } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { eventually } from '../dispatch/dispatch.test-support.js';
import {
  newCustomer,
  orderVm,
  reportRunning,
  startVmResourcesWorld,
  type Customer,
  type VmResourcesWorld,
} from '../vm-snapshots/vm-resources.test-support.js';

interface ConsoleView {
  websocketUrl: string;
  sessionId: string;
  token: string;
  password: string;
  expiresAt: string;
}

interface ErrorBody {
  code: string;
  message: string;
}

const PASSWORD = 'rfb-7Qx2';

describe.each(DATABASE_KINDS)('the console over the API on the %s database', (kind) => {
  let world: VmResourcesWorld;
  let buyer: Customer;
  let vmId: string;
  beforeAll(async () => {
    world = await startVmResourcesWorld(kind);
    buyer = await newCustomer(world);
    vmId = await orderVm(world, buyer);
  }, 60_000);
  afterAll(() => world.close());

  /** Plays the operator for the next VNCRequest of the VM: answers it with `status`. */
  async function answerNextRequest(status: Record<string, unknown>): Promise<string> {
    const request = await eventually(async () => {
      const { items } = await world.kube.admin.vncRequests.list(world.namespace);
      const open = items.find((r) => r.spec.vmRef === `nr-${vmId}` && r.status === undefined);
      expect(open).toBeDefined();
      return open;
    });
    const name = request?.metadata?.name ?? '';
    await world.kube.admin.vncRequests.mergePatchStatus({ namespace: world.namespace, name }, { status });
    return name;
  }

  const open = (as: Customer | { token: string; organizationId: string } = buyer) =>
    world.t.call<ConsoleView & ErrorBody>('GET', `/v1/virtual-machines/${vmId}/console`, { as });

  it('refuses a VM that is not running yet, and asks the cluster nothing', async () => {
    const refused = await open();
    expect(refused.status).toBe(412);
    expect(refused.body.message).toContain('not running');
    expect((await world.kube.admin.vncRequests.list(world.namespace)).items).toEqual([]);
  });

  it('answers with the RFB password once the operator has opened the proxy, and logs no secret', async () => {
    await reportRunning(world, vmId);
    const expiresAt = new Date(Date.now() + 40_000).toISOString();
    const ticket = `${PASSWORD}:PVEVNC:6789ABCD::c2lnbmF0dXJl`;
    const [response, name] = await Promise.all([
      open(),
      answerNextRequest({
        phase: 'Ready',
        node: 'pve1',
        vmid: 1000,
        port: 5900,
        ticket,
        password: PASSWORD,
        expiresAt,
      }),
    ]);
    expect(response.status).toBe(200);
    const { sessionId, token } = response.body;
    expect(response.body).toEqual({
      websocketUrl: `/v1/virtual-machines/${vmId}/console/ws?session=${sessionId}`,
      sessionId,
      token: expect.stringMatching(/^nrc_[A-Za-z0-9_-]{43}$/) as unknown,
      password: PASSWORD,
      expiresAt,
    });
    expect(name).toBe(`nr-${vmId}-vnc-${sessionId.slice(0, 8)}`);
    const row = await world.t.cp.db
      .selectFrom('vm_console_sessions')
      .selectAll()
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    expect(Buffer.from(row.token_hash)).toEqual(createHash('sha256').update(token).digest());
    expect(JSON.stringify(row)).not.toContain(PASSWORD);
    const logged = world.t.logLines.filter(
      (line) => line.includes(PASSWORD) || line.includes(token) || line.includes('PVEVNC'),
    );
    expect(logged).toEqual([]);
    const audit = await world.t.cp.db
      .selectFrom('audit_events')
      .select(['action', 'target_id', 'status_code'])
      .where('action', '=', 'virtual-machine.console')
      .execute();
    expect(audit).toContainEqual({ action: 'virtual-machine.console', target_id: vmId, status_code: 200 });
  });

  it('says why when the operator cannot open it, and withdraws the request', async () => {
    const [response, name] = await Promise.all([
      open(),
      answerNextRequest({
        phase: 'Failed',
        message: 'VM NR-x is stopped: start it before opening its console',
      }),
    ]);
    expect(response.status).toBe(412);
    expect(response.body.message).toContain('start it before opening its console');
    await eventually(async () => {
      expect(await world.kube.admin.vncRequests.find({ namespace: world.namespace, name })).toBeUndefined();
    });
  });

  it('is only for the VM’s owner, and only for its admins', async () => {
    const stranger = await newCustomer(world);
    expect((await open(stranger)).status).toBe(404);
    const member = await world.t.register('ORGANIZATION_TYPE_CLIENT');
    await world.t.addMember(buyer, member, 'member');
    expect((await open({ token: member.token, organizationId: buyer.organizationId })).status).toBe(403);
  });
});
