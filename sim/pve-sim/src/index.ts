export { startPveSim, type PveSim, type PveSimOptions } from './pve-sim.js';
export {
  defaultScenario,
  type Scenario,
  type ScenarioNode,
  type ScenarioStorage,
  type ScenarioVm,
} from './scenario.js';
export type { AclRule, TokenSpec, UserSpec } from './access-control.js';
export type { FaultInput } from './fault-injector.js';
export type { CloudInitView } from './cloud-init-view.js';
