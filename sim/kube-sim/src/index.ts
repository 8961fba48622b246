export { startKubeSim, type KubeSim, type KubeSimOptions, type KubeconfigOptions } from './kube-sim.js';
export type { StaticToken } from './auth/index.js';
