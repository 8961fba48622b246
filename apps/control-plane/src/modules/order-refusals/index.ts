export { OrderRefusalRepository } from './order-refusal.repository.js';
export { registerOrderRefusalModule } from './order-refusal.module.js';
