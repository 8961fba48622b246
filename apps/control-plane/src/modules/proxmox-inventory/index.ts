export { readAgentInventory } from './agent-inventory-reader.js';
export type { ProxmoxInventoryReading } from './proxmox-inventory.js';
export { ProxmoxInventoryRepository } from './proxmox-inventory.repository.js';
export { ProxmoxInventoryService } from './proxmox-inventory.service.js';
export { registerProxmoxInventoryModule } from './proxmox-inventory.module.js';
