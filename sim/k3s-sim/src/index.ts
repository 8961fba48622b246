export { startK3sSim, type K3sSim, type K3sSimOptions } from './k3s-sim.js';
export { k3sLayout, podLogPath, type K3sLayout } from './layout.js';
