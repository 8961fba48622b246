export { registerFleetModule, type FleetOptions, type FleetWorkers } from './fleet-module.js';
