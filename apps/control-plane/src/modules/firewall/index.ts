export { createFirewallModule } from './firewall-module.js';
export { firewallRoutes } from './firewall.routes.js';
export { bumpVmGenerations } from './vm-generations.js';
