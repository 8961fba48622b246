import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import type { AddressGroupService } from './address-group.service.js';
import { addressGroupFields, addressGroupView, toAddressGroupView } from './firewall.schemas.js';

const CUSTOMER: RouteAccess = { kind: 'tenant' };
const TAGS = ['FirewallService'];
const groupResponse = z.object({ group: addressGroupView });

export const addressGroupRoutes: FastifyPluginCallbackZod<{ groups: AddressGroupService }> = (
  app,
  { groups },
  done,
) => {
  app.get(
    '/v1/firewall/address-groups',
    {
      config: { access: CUSTOMER },
      schema: {
        tags: TAGS,
        summary: 'Your address groups by name.',
        querystring: pageQuery,
        response: { 200: z.object({ groups: z.array(addressGroupView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const result = await groups.list(tenantOf(request).organizationId, request.query);
      return { groups: result.items.map(toAddressGroupView), totalCount: result.totalCount };
    },
  );

  app.post(
    '/v1/firewall/address-groups',
    {
      config: { access: CUSTOMER, audit: 'firewall-address-group.create' },
      schema: {
        tags: TAGS,
        summary: 'Creates a named set of prefixes for rules to refer to.',
        description: 'Deviation: prefixes are CIDR strings ("192.0.2.0/24"), not {ip, prefix} objects.',
        body: z.strictObject({ group: z.strictObject(addressGroupFields) }),
        response: { 201: groupResponse },
      },
    },
    async (request, reply) => {
      const group = await groups.create(tenantOf(request).organizationId, request.body.group);
      request.auditTarget = { type: 'firewall-address-group', id: group.id };
      return reply.status(201).send({ group: toAddressGroupView(group) });
    },
  );

  app.get(
    '/v1/firewall/address-groups/:id',
    {
      config: { access: CUSTOMER },
      schema: { tags: TAGS, params: idParams, response: { 200: groupResponse } },
    },
    async (request) => ({
      group: toAddressGroupView(await groups.get(tenantOf(request).organizationId, request.params.id)),
    }),
  );

  app.patch(
    '/v1/firewall/address-groups/:id',
    {
      config: { access: CUSTOMER, audit: 'firewall-address-group.update' },
      schema: {
        tags: TAGS,
        summary: 'Renames the group or replaces its prefixes; the VMs whose rules name it get the change.',
        params: idParams,
        body: z.strictObject({ group: z.strictObject(addressGroupFields).partial() }),
        response: { 200: groupResponse },
      },
    },
    async (request) => ({
      group: toAddressGroupView(
        await groups.update(tenantOf(request).organizationId, request.params.id, request.body.group),
      ),
    }),
  );

  app.delete(
    '/v1/firewall/address-groups/:id',
    {
      config: { access: CUSTOMER, audit: 'firewall-address-group.delete' },
      schema: {
        tags: TAGS,
        summary: 'Deletes a group no rule names (412 otherwise).',
        params: idParams,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      await groups.delete(tenantOf(request).organizationId, request.params.id);
      return { success: true };
    },
  );

  done();
};
