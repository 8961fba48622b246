import { z } from 'zod';

import type { RouteAccess } from '../../http/route-access.js';

/** Every fleet route lives here, beside the agents' own `POST …/agents/enroll`. */
export const FLEET_PREFIX = '/api/v1/fleet';

/** Members of a provider organisation read; admins write (the default roles of a tenant route). */
export const PROVIDER: RouteAccess = { kind: 'tenant', organizationType: 'ORGANIZATION_TYPE_PROVIDER' };
/** Credentials are an admin's business, reads included. */
export const PROVIDER_ADMIN: RouteAccess = {
  kind: 'tenant',
  minRole: 'admin',
  organizationType: 'ORGANIZATION_TYPE_PROVIDER',
};
/** Agents call these with their own credential (install token, nkey signature), not a session. */
export const AGENT_CALL: RouteAccess = { kind: 'public' };

export const agentIdParams = z.object({ agentId: z.uuid() });

/** A node or host name, as agents enroll with it (the contract's `enrollRequestSchema.name`). */
export const hostnameSchema = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[a-zA-Z0-9]([a-zA-Z0-9._-]*[a-zA-Z0-9])?$/, 'must be a host name (letters, digits, dots, dashes)');

export const environmentFilter = z.uuid().optional().describe("Only this environment's.");

/** A sample value: JSON has no NaN or infinities, so those are strings (as agents send them). */
export const sampleValueView = z.union([z.number(), z.enum(['NaN', '+Inf', '-Inf'])]);

export const timeQuery = z.iso.datetime({ offset: true });
