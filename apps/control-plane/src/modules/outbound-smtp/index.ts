export { OutboundSmtpService } from './outbound-smtp.service.js';
export { registerOutboundSmtpModule } from './outbound-smtp.module.js';
