import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import { wireEnum } from '../../http/wire-enum.js';
import type { SshKey, SshKeyService } from './ssh-key.service.js';

const keyType = wireEnum({
  rsa: 'SSH_KEY_TYPE_RSA',
  ed25519: 'SSH_KEY_TYPE_ED25519',
  ecdsa: 'SSH_KEY_TYPE_ECDSA',
});

const sshKeyView = z
  .object({
    id: z.string(),
    name: z.string(),
    publicKey: z.string(),
    keyType: keyType.schema,
    fingerprint: z.string(),
    organizationId: z.string(),
    createTime: z.string(),
  })
  .meta({ id: 'SshKey' });

function toSshKeyView(k: SshKey): z.infer<typeof sshKeyView> {
  return {
    id: k.id,
    name: k.name,
    publicKey: k.publicKey,
    keyType: keyType.toWire(k.keyType),
    fingerprint: k.fingerprint,
    organizationId: k.organizationId,
    createTime: k.createdAt.toISOString(),
  };
}

const TENANT: RouteAccess = { kind: 'tenant' };
const tags = ['SSHKeyService'];
/** Room for a 16384-bit RSA key and a long comment; anything longer is not a public key. */
const MAX_PUBLIC_KEY_LENGTH = 16 * 1024;

export const sshKeyRoutes: FastifyPluginCallbackZod<{ sshKeys: SshKeyService }> = (
  app,
  { sshKeys },
  done,
) => {
  app.get(
    '/v1/ssh-keys',
    {
      config: { access: TENANT },
      schema: {
        tags,
        querystring: pageQuery,
        response: { 200: z.object({ sshKeys: z.array(sshKeyView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const result = await sshKeys.list(tenantOf(request).organizationId, request.query);
      return { sshKeys: result.items.map(toSshKeyView), totalCount: result.totalCount };
    },
  );

  app.post(
    '/v1/ssh-keys',
    {
      config: { access: TENANT, audit: 'sshKey.create' },
      schema: {
        tags,
        summary:
          'Adds an OpenSSH public key (ssh-ed25519, ecdsa-sha2-nistp256/384/521, or ssh-rsa of 2048 bits or more).',
        body: z.strictObject({
          name: z.string().trim().min(1).max(100),
          publicKey: z.string().min(1).max(MAX_PUBLIC_KEY_LENGTH),
        }),
        response: { 201: z.object({ sshKey: sshKeyView }) },
      },
    },
    async (request, reply) => {
      const sshKey = await sshKeys.create(tenantOf(request).organizationId, request.body);
      request.auditTarget = { type: 'sshKey', id: sshKey.id };
      return reply.status(201).send({ sshKey: toSshKeyView(sshKey) });
    },
  );

  app.get(
    '/v1/ssh-keys/:id',
    {
      config: { access: TENANT },
      schema: { tags, params: idParams, response: { 200: z.object({ sshKey: sshKeyView }) } },
    },
    async (request) => ({
      sshKey: toSshKeyView(await sshKeys.get(tenantOf(request).organizationId, request.params.id)),
    }),
  );

  app.delete(
    '/v1/ssh-keys/:id',
    {
      config: { access: TENANT, audit: 'sshKey.delete' },
      schema: { tags, params: idParams, response: { 200: successResponse } },
    },
    async (request) => {
      await sshKeys.delete(tenantOf(request).organizationId, request.params.id);
      return { success: true };
    },
  );
  done();
};
