export { registerFleetModule, type FleetOptions } from './fleet.module.js';
