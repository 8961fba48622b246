import type { PlatformVersions } from '@noderings/domain';
import type { FastifyInstance } from 'fastify';

import { platformVersionsRoutes } from './platform-versions.routes.js';
import { publishPlatformVersions } from './published-platform-versions.js';

export async function registerPlatformVersionsModule(
  app: FastifyInstance,
  { platformVersions }: { readonly platformVersions: PlatformVersions },
): Promise<void> {
  await app.register(platformVersionsRoutes, { published: publishPlatformVersions(platformVersions) });
}
