import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams } from '../../http/id-params.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import type { VmConsoleService } from './vm-console.service.js';

/** A console is the VM's keyboard and screen: opening one is a write, whatever its method. */
const CONSOLE: RouteAccess = { kind: 'tenant', minRole: 'admin' };

const consoleView = z
  .object({
    websocketUrl: z
      .string()
      .describe(
        "The console relay's path on this API, with the session; the relay itself comes with the vnc-gateway (not served yet).",
      ),
    sessionId: z.string(),
    token: z.string().describe('Opens the session at the relay; shown once, only its hash is kept.'),
    password: z.string().describe('The RFB (VNC) password the console asks for.'),
    expiresAt: z.iso.datetime().describe('The session must be opened before then.'),
  })
  .meta({ id: 'VmConsole' });

export const vmConsoleRoutes: FastifyPluginCallbackZod<{ consoles: VmConsoleService }> = (
  app,
  { consoles },
  done,
) => {
  app.get(
    '/v1/virtual-machines/:id/console',
    {
      config: { access: CONSOLE, audit: 'virtual-machine.console' },
      schema: {
        tags: ['VirtualMachineService'],
        summary: 'Opens a console session on a running VM (VNC over WebSocket).',
        description:
          "Waits until the provider's operator has opened the VNC proxy (503 UNAVAILABLE after 15 s, or at once when the agent cannot be reached; 412 when the VM is not running). Needs the admin role. Deviation: answers `expiresAt` too.",
        params: idParams,
        response: { 200: consoleView },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const access = await consoles.open(tenantOf(request).organizationId, id);
      reply.header('cache-control', 'no-store');
      return {
        websocketUrl: `/v1/virtual-machines/${id}/console/ws?session=${access.sessionId}`,
        sessionId: access.sessionId,
        token: access.token,
        password: access.password,
        expiresAt: access.expiresAt.toISOString(),
      };
    },
  );

  done();
};
