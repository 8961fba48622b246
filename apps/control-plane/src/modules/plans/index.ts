export { PlanCalculator } from './plan-calculator.service.js';
export { PlanRepository } from './plan.repository.js';
export { planRoutes } from './plan.routes.js';
export { PlanService } from './plan.service.js';
