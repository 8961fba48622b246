export { OrderRefusalRepository } from './order-refusal.repository.js';
export { orderRefusalRoutes } from './order-refusal.routes.js';
