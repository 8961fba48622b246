import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';

interface ErrorBody {
  code: string;
  details: { fieldViolations: { field: string; description: string }[] }[];
}

function agentBody(agentPublicIp: string): Record<string, unknown> {
  return {
    name: `agent ${agentPublicIp}`,
    agentPublicIp,
    gatewayRegion: 'AGENT_GATEWAY_REGION_AMS01',
    hypervisorDriver: 'HYPERVISOR_DRIVER_PROXMOX',
  };
}

describe.each(DATABASE_KINDS)("an agent's public IP on the %s database", (kind) => {
  let t: TestControlPlane;
  let provider: Caller;
  beforeAll(async () => {
    // As in production: the development flag that lets private addresses through is off.
    t = await startTestControlPlane(kind, { allowPrivateDestinations: false });
    provider = await t.verifiedProvider();
  }, 60_000);
  afterAll(() => t.close());

  it.each([
    ['10.0.0.5', 'private space'],
    ['172.16.4.1', 'private space'],
    ['192.168.1.100', 'private space'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['127.0.0.1', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['192.0.2.10', 'documentation'],
    ['203.0.113.7', 'documentation'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
  ])('refuses %s with a 400 on agentPublicIp saying why (%s)', async (ip, why) => {
    const refused = await t.call<ErrorBody>('POST', '/v1/agents', { as: provider, body: agentBody(ip) });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.code).toBe('INVALID_ARGUMENT');
    const [violation, ...others] = refused.body.details[0]?.fieldViolations ?? [];
    expect(others).toEqual([]);
    expect(violation?.field).toBe('agentPublicIp');
    expect(violation?.description).toContain(why);
  });

  it('takes a public IPv4 address, and stored none of the refused ones', async () => {
    const created = await t.call<{ agent: { agentPublicIp: string } }>('POST', '/v1/agents', {
      as: provider,
      body: agentBody('185.12.64.10'),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.agent.agentPublicIp).toBe('185.12.64.10');
    const listed = await t.call<{ totalCount: number }>('GET', '/v1/agents', { as: provider });
    expect(listed.body.totalCount).toBe(1);
  });
});
