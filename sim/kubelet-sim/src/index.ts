export { startKubeletSim, type KubeletSim, type KubeletSimOptions } from './kubelet-sim.js';
export type { KubeletFault, KubeletPath } from './fault-injector.js';
export type { KubeletSimToken, KubeletSubresource } from './kubelet-auth.js';
export type { RecordedDocuments } from './recorded-documents.js';
export {
  createSimulatedNode,
  type SimulatedContainer,
  type SimulatedContainerSpec,
  type SimulatedNode,
  type SimulatedNodeOptions,
  type SimulatedPod,
  type SimulatedPodSpec,
} from './simulated-node.js';
export type { PodPhase, SimulatedWorkload, TerminationReason } from './pod-model.js';
export { renderStatsSummary, type StatsSummaryOptions } from './stats-summary.js';
export { renderCadvisorMetrics } from './cadvisor-metrics.js';
export { renderPodList } from './pod-list.js';
