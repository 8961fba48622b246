import type { FastifyInstance } from 'fastify';

import type { ModuleContext } from '../module.js';
import { SshKeyRepository } from './ssh-key.repository.js';
import { sshKeyRoutes } from './ssh-key.routes.js';
import { SshKeyService } from './ssh-key.service.js';

export async function registerSshKeyModule(
  app: FastifyInstance,
  { db, now }: ModuleContext,
): Promise<{ readonly sshKeys: SshKeyService }> {
  const sshKeys = new SshKeyService({ sshKeys: new SshKeyRepository(db), now });
  await app.register(sshKeyRoutes, { sshKeys });
  return { sshKeys };
}
