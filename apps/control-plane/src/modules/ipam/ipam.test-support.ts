import { formatIpAddress, type IpFamily } from '@noderings/domain';

import type { Caller, TestControlPlane } from '../../control-plane.test-support.js';
import type { Db } from '../../db/database.js';
import { createRegion, insertPlatform, requiredNodeFields } from '../nodes/node.test-support.js';
import { AllocationRepository } from './allocation.repository.js';
import { IpAllocationService } from './allocation.service.js';

export interface NetworkView {
  id: string;
  organizationId: string;
  name: string;
  dnsServers: string[];
  macAddressPrefix: string;
  nodes: { id: string; name: string; platformId: string; regionId: string }[];
  createTime: string;
  updateTime: string;
}

export interface PrefixView {
  id: string;
  organizationId: string;
  networkId: string | null;
  cidr: string;
  family: IpFamily;
  gateway: string;
  allocationStrategy: string;
  description: string;
  vmAssignmentPrefixLength: number;
  reservedIps: string[];
  reservedPrefixes: string[];
  createTime: string;
  updateTime: string;
}

export interface ErrorBody {
  code: string;
  message: string;
  details: { fieldViolations: { field: string; description: string }[] }[];
}

export function violatedFields(body: unknown): string[] {
  return (body as ErrorBody).details.flatMap((d) => d.fieldViolations.map((v) => v.field));
}

/** A provider organisation with a platform and a region to hang nodes on. */
export async function ipamProvider(
  t: TestControlPlane,
): Promise<Caller & { organizationId: string; platformId: string; regionId: string }> {
  const caller = await t.register();
  return {
    ...caller,
    platformId: await insertPlatform(t, caller.organizationId),
    regionId: await createRegion(t, caller),
  };
}

export async function createNode(
  t: TestControlPlane,
  p: Awaited<ReturnType<typeof ipamProvider>>,
  name: string,
): Promise<{ id: string; name: string }> {
  const response = await t.call<{ node: { id: string; name: string } }>('POST', '/v1/node', {
    as: p,
    body: requiredNodeFields(p.platformId, p.regionId, name),
  });
  if (response.status !== 201) throw new Error(`node create failed: ${JSON.stringify(response.body)}`);
  return response.body.node;
}

export async function createNetwork(
  t: TestControlPlane,
  as: Caller,
  body: Record<string, unknown> = {},
): Promise<NetworkView> {
  const response = await t.call<{ network: NetworkView }>('POST', '/v1/ipam/networks', {
    as,
    body: { name: `network ${String(Math.random()).slice(2)}`, ...body },
  });
  if (response.status !== 201) throw new Error(`network create failed: ${JSON.stringify(response.body)}`);
  return response.body.network;
}

export async function createPrefix(
  t: TestControlPlane,
  as: Caller,
  body: Record<string, unknown>,
): Promise<PrefixView> {
  const response = await t.call<{ prefix: PrefixView }>('POST', '/v1/ipam/prefixes', { as, body });
  if (response.status !== 201) throw new Error(`prefix create failed: ${JSON.stringify(response.body)}`);
  return response.body.prefix;
}

export function allocationService(db: Db): IpAllocationService {
  return new IpAllocationService({ allocations: new AllocationRepository(db) });
}

/** One allocation in a transaction of its own, as a claim would make it. */
export async function allocateOne(
  db: Db,
  input: { organizationId: string; networkId: string; family: IpFamily; claimId: string },
  service: IpAllocationService = allocationService(db),
): Promise<{ id: string; address: string; allocatedCidr: string; kind: string } | undefined> {
  const allocation = await db.transaction().execute((tx) => service.allocateAddress(tx, input));
  return (
    allocation && {
      id: allocation.id,
      address: formatIpAddress(allocation.address),
      allocatedCidr: allocation.allocatedCidr,
      kind: allocation.allocationKind,
    }
  );
}
