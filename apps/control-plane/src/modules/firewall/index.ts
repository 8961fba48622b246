export { registerFirewallModule } from './firewall.module.js';
export { bumpVmGenerations } from './vm-generations.js';
export type { FirewallService } from './firewall.service.js';
