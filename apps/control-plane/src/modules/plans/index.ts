export { registerPlanModule } from './plan.module.js';
