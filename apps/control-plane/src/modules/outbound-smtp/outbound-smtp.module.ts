import type { FastifyInstance } from 'fastify';

import { bumpVmGenerations } from '../virtual-machines/index.js';
import type { ModuleContext } from '../module.js';
import { OutboundSmtpRepository } from './outbound-smtp.repository.js';
import { outboundSmtpRoutes } from './outbound-smtp.routes.js';
import { OutboundSmtpService } from './outbound-smtp.service.js';

/** Whether VMs may send mail on port 25, per provider, plan and VM. */
export async function registerOutboundSmtpModule(
  app: FastifyInstance,
  { db, changed }: ModuleContext & { readonly changed: () => void },
): Promise<{ readonly smtp: OutboundSmtpService }> {
  const smtp = new OutboundSmtpService({
    policies: new OutboundSmtpRepository(db),
    bumpGenerations: bumpVmGenerations,
    changed,
  });
  await app.register(outboundSmtpRoutes, { smtp });
  return { smtp };
}
