export { registerFirewallModule } from './firewall.module.js';

export type { FirewallService } from './firewall.service.js';
