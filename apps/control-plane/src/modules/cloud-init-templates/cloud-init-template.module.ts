import { randomBytes } from 'node:crypto';

import type { FastifyInstance } from 'fastify';

import type { EnvironmentVariableService } from '../environment-variables/index.js';
import type { ModuleContext } from '../module.js';
import type { SecretService } from '../secrets/index.js';
import type { SshKeyService } from '../ssh-keys/index.js';
import { CloudInitCompileService } from './cloud-init-compile.service.js';
import { CloudInitTemplateRepository } from './cloud-init-template.repository.js';
import { cloudInitTemplateRoutes } from './cloud-init-template.routes.js';
import { CloudInitTemplateService } from './cloud-init-template.service.js';

export interface CloudInitTemplateModuleDeps extends ModuleContext {
  readonly secrets: SecretService;
  readonly variables: EnvironmentVariableService;
  readonly sshKeys: SshKeyService;
}

/** Cloud-init templates, and the compiler that fills one in for a VM order. */
export async function registerCloudInitTemplateModule(
  app: FastifyInstance,
  deps: CloudInitTemplateModuleDeps,
): Promise<{ readonly templates: CloudInitTemplateService; readonly compiler: CloudInitCompileService }> {
  const templates = new CloudInitTemplateService({
    templates: new CloudInitTemplateRepository(deps.db),
    now: deps.now,
  });
  const compiler = new CloudInitCompileService({
    templates,
    secrets: deps.secrets,
    variables: deps.variables,
    sshKeys: deps.sshKeys,
    randomBytes,
  });
  await app.register(cloudInitTemplateRoutes, { templates, compiler });
  return { templates, compiler };
}
