export { OutboundSmtpRepository } from './outbound-smtp.repository.js';
export { outboundSmtpRoutes } from './outbound-smtp.routes.js';
export { OutboundSmtpService } from './outbound-smtp.service.js';
