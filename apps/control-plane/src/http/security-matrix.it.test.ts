import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type Caller, type TestControlPlane } from '../control-plane.test-support.js';
import { DATABASE_KINDS } from '../db/test-database.test-support.js';
import {
  documentedOperations,
  fillPath,
  isMutating,
  type Operation,
} from './openapi-operations.test-support.js';
import {
  createTenantFixture,
  fixtureIdFor,
  fixtureValueFor,
  SECRET_VALUE,
  type TenantFixture,
} from './tenant-fixture.test-support.js';

const ANY_UUID = '00000000-0000-4000-8000-000000000000';
const KUBECONFIG = `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]
users: [{name: u, user: {token: abc}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`;

/** A body that passes validation, so that the call reaches the object lookup. */
function validBodyFor(operation: Operation, ownFixture: TenantFixture): unknown {
  const bodies: Record<string, unknown> = {
    'PATCH /v1/agents/{id}': { name: 'renamed' },
    'POST /v1/agents/{id}:generateInstallCommand': {},
    'POST /v1/agents/{id}:generatePeeringConfig': {},
    'POST /v1/agents/{id}:uploadInboundPeeringConfig': { kubeconfig: KUBECONFIG },
    'PATCH /v1/platform/{id}': { name: 'renamed' },
    'POST /v1/platforms/{id}:AssignAgent': { agentId: ownFixture.ids.agent },
    'POST /v1/platforms/{id}:UnassignAgent': { agentId: ownFixture.ids.agent },
    'PATCH /v1/node/{id}': { maintenanceMode: true },
    'PATCH /v1/plans/{id}': { isPublic: true },
    'PATCH /v1/addons/{id}': { autoAttach: true },
    'PATCH /v1/secrets/{id}': { value: 'overwritten' },
    'PATCH /v1/environment-variables/{id}': { value: 'overwritten' },
    'PATCH /v1/cloudinittemplate/{id}': { name: 'renamed' },
    'POST /v1/cloudinittemplate/{id}:render': {},
    'PATCH /v1/vmtemplate/{id}': { name: 'renamed' },
    'PATCH /v1/cloudinituserdata/{id}': { name: 'renamed' },
    'PATCH /v1/service-accounts/{id}': { name: 'renamed' },
    'POST /v1/service-accounts/{id}/tokens': { name: 'stolen' },
    'PATCH /v1/organization/members/{userId}': { role: 'MEMBER_ROLE_ADMIN' },
    'PATCH /v1/ipam/networks/{id}': { name: 'renamed' },
    'POST /v1/ipam/networks/{id}/assign-node': { nodeIds: [ownFixture.ids.node] },
    'POST /v1/ipam/nodes/{id}/unassign-network': {},
    'PATCH /v1/ipam/prefixes/{id}': { description: 'renamed' },
    'POST /v1/ipam/prefixes/{id}/reserved-ips': { ip: '198.51.100.7' },
    'POST /v1/ipam/prefixes/{id}/reserved-ips/clear-all': {},
    'POST /v1/ipam/prefixes/{id}/reserved-ips/reserve-all': {},
    'POST /v1/ipam/prefixes/{id}/reserved-prefixes': { cidr: '198.51.100.128/28' },
    'DELETE /v1/ipam/prefixes/{id}/reserved-prefixes': { cidr: '198.51.100.240/28' },
    'PATCH /v1/virtual-machines/{id}': { addTags: ['stolen'] },
    'POST /v1/virtual-machines/{id}:start': {},
    'POST /v1/virtual-machines/{id}:stop': {},
    'POST /v1/virtual-machines/{id}:restart': {},
    'POST /v1/virtual-machines/{id}:reinstall': { password: 'a stolen reinstall' },
    'POST /v1/virtual-machines/{id}:attach-firewall': { rulesetId: ownFixture.ids.firewallRuleset },
    'POST /v1/virtual-machines/{id}:detach-firewall': { rulesetId: ownFixture.ids.firewallRuleset },
    'PATCH /v1/firewall/rulesets/{id}': { ruleset: { name: 'renamed' } },
    'POST /v1/firewall/rulesets/{rulesetId}/rules': {
      rule: { direction: 'FIREWALL_DIRECTION_INGRESS', action: 'FIREWALL_ACTION_DROP' },
    },
    'PATCH /v1/firewall/rules/{id}': {
      rule: { direction: 'FIREWALL_DIRECTION_EGRESS', action: 'FIREWALL_ACTION_DROP' },
    },
    'POST /v1/firewall/rules/{id}/move': {
      targetRuleId: ownFixture.ids.firewallRule,
      position: 'FIREWALL_RULE_POSITION_BEFORE',
    },
    'PATCH /v1/firewall/address-groups/{id}': { group: { prefixes: ['0.0.0.0/0'] } },
    'PUT /v1/provider/network/smtp-outbound-policies/{vmId}': { action: 'SMTP_OUTBOUND_VM_ACTION_ALLOW' },
    'POST /v1/virtual-machines/{id}:enable-backup': { addonId: ownFixture.ids.addon },
    'POST /v1/virtual-machines/{id}:disable-backup': {
      addonId: ownFixture.ids.addon,
      cancelImmediately: true,
    },
    'POST /v1/virtual-machines/{vmId}/snapshots': { description: 'stolen' },
    'POST /v1/metrics-credentials/{id}:rotate': {},
    'POST /v1/virtual-machines/{vmId}/snapshots/{snapshotId}/restore': { stopVm: true },
    'POST /v1/virtual-machines/{vmId}/backups/{backupId}/restore': { startAfterRestore: true },
    'POST /api/v1/fleet/environments/{id}/install-tokens': { description: 'stolen' },
    'POST /api/v1/fleet/environments/{id}/clusters': { name: 'stolen' },
  };
  const key = `${operation.method} ${operation.path}`;
  if (operation.body === undefined) return undefined;
  if (!(key in bodies)) throw new Error(`add a valid body for ${key} to the security matrix`);
  return bodies[key];
}

/** Everything organisation B can read about itself; it must be the same before and after A's attempts. */
async function snapshot(t: TestControlPlane, as: Caller, fixture: TenantFixture): Promise<unknown[]> {
  const paths = [
    '/v1/organization',
    '/v1/organization/members',
    '/v1/organization/invitations',
    '/v1/regions',
    '/v1/agents',
    '/v1/platforms',
    '/v1/nodes',
    '/v1/plans',
    '/v1/addons',
    '/v1/secrets',
    '/v1/environment-variables',
    '/v1/ssh-keys',
    '/v1/cloudinittemplates',
    '/v1/vmtemplates',
    '/v1/cloudinituserdata',
    '/v1/service-accounts?includeInactive=true',
    `/v1/service-accounts/${fixture.ids.serviceAccount}/tokens`,
    '/v1/ipam/networks',
    '/v1/ipam/prefixes',
    '/v1/ipam/allocations',
    '/v1/node-placement-policy',
    '/v1/virtual-machines',
    '/v1/provider/virtual-machines',
    '/v1/firewall/rulesets',
    `/v1/firewall/rulesets/${fixture.ids.firewallRuleset}/rules`,
    '/v1/firewall/address-groups',
    '/v1/provider/network/smtp-outbound-policy',
    '/v1/provider/network/smtp-outbound-policies',
    `/v1/virtual-machines/${fixture.ids.virtualMachine}/snapshots`,
    `/v1/virtual-machines/${fixture.ids.virtualMachine}/backups`,
    '/v1/metrics-credentials',
    '/api/v1/fleet/environments',
    `/api/v1/fleet/environments/${fixture.ids.fleetEnvironment}/install-tokens`,
    '/api/v1/fleet/agents?includeReleased=true',
    '/api/v1/fleet/clusters',
    `/api/v1/fleet/clusters/${fixture.ids.fleetCluster}`,
  ];
  return Promise.all(paths.map(async (path) => [path, (await t.call('GET', path, { as })).body]));
}

describe.each(DATABASE_KINDS)(
  'the security matrix over every documented route on the %s database',
  (kind) => {
    let t: TestControlPlane;
    let operations: Operation[];
    let a: TenantFixture;
    let b: TenantFixture;
    beforeAll(async () => {
      t = await startTestControlPlane(kind);
      operations = (await documentedOperations(t)).operations;
      a = await createTenantFixture(t);
      b = await createTenantFixture(t);
    }, 60_000);
    afterAll(() => t.close());

    const protectedOperations = () => operations.filter((o) => o.access.kind !== 'public');
    const tenantOperations = () => operations.filter((o) => o.access.kind === 'tenant');

    it('answers 401 to every protected route without a token', async () => {
      const failures: string[] = [];
      for (const operation of protectedOperations()) {
        const response = await t.call(
          operation.method,
          fillPath(operation.path, () => ANY_UUID),
        );
        if (response.status !== 401)
          failures.push(`${operation.method} ${operation.path} → ${String(response.status)}`);
      }
      expect(failures).toEqual([]);
    });

    it('hides organization B’s objects from organization A on every route (404) and changes nothing', async () => {
      const asB = { token: b.owner.token, organizationId: b.owner.organizationId };
      const before = await snapshot(t, asB, b);
      const failures: string[] = [];
      let checked = 0;
      for (const operation of tenantOperations().filter((o) => o.parameters.some((p) => p.in === 'path'))) {
        const id = fixtureIdFor(operation.path, b);
        if (id === undefined) {
          failures.push(`${operation.method} ${operation.path}: no fixture object for its path parameter`);
          continue;
        }
        const response = await t.call(
          operation.method,
          fillPath(operation.path, (name) => fixtureValueFor(operation.path, name, b) ?? id),
          {
            as: { token: a.owner.token, organizationId: a.owner.organizationId },
            body: validBodyFor(operation, a),
          },
        );
        checked++;
        if (response.status !== 404)
          failures.push(
            `${operation.method} ${operation.path} → ${String(response.status)} ${JSON.stringify(response.body)}`,
          );
      }
      expect(failures).toEqual([]);
      expect(checked).toBeGreaterThan(20);
      expect(await snapshot(t, asB, b)).toEqual(before);
    });

    it('refuses X-Organization-ID naming an organization the caller does not belong to, on every tenant route', async () => {
      const failures: string[] = [];
      for (const operation of tenantOperations()) {
        const response = await t.call(
          operation.method,
          fillPath(operation.path, () => ANY_UUID),
          {
            as: { token: a.owner.token, organizationId: b.owner.organizationId },
          },
        );
        if (response.status !== 403)
          failures.push(`${operation.method} ${operation.path} → ${String(response.status)}`);
      }
      expect(failures).toEqual([]);
    });

    it('refuses every mutating tenant route to the member role unless the route allows members', async () => {
      const failures: string[] = [];
      for (const operation of tenantOperations().filter(
        (o) => isMutating(o) && o.access.kind === 'tenant' && o.access.minRole !== 'member',
      )) {
        const response = await t.call(
          operation.method,
          fillPath(operation.path, () => ANY_UUID),
          { as: b.member },
        );
        if (response.status !== 403)
          failures.push(`${operation.method} ${operation.path} → ${String(response.status)}`);
      }
      expect(failures).toEqual([]);
    });

    it('refuses a service-account token outside its allowedIps on every tenant route', async () => {
      const failures: string[] = [];
      for (const operation of tenantOperations()) {
        const response = await t.call(
          operation.method,
          fillPath(operation.path, () => ANY_UUID),
          { as: b.ipLimited },
        );
        if (response.status !== 403)
          failures.push(`${operation.method} ${operation.path} → ${String(response.status)}`);
      }
      expect(failures).toEqual([]);
    });

    it('never returns or logs a secret value', async () => {
      const asB = { token: b.owner.token, organizationId: b.owner.organizationId };
      for (const operation of tenantOperations().filter((o) => !isMutating(o))) {
        const response = await t.call(
          operation.method,
          fillPath(operation.path, (name) => fixtureValueFor(operation.path, name, b) ?? name),
          { as: asB },
        );
        expect(JSON.stringify(response.body), `${operation.method} ${operation.path}`).not.toContain(
          SECRET_VALUE,
        );
      }
      expect(t.logLines.filter((line) => line.includes(SECRET_VALUE))).toEqual([]);
      expect(
        t.logLines.filter((line) => line.includes(b.owner.token) || line.includes(b.ipLimited.token)),
      ).toEqual([]);
    });
  },
);
