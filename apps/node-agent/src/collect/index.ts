export { KubeletCollector } from './kubelet-collector.js';
export type {
  KubeletCollectorOptions,
  KubeletSource,
  SourceResult,
  SourceStatus,
  TickInput,
  TickResult,
} from './kubelet-collector.js';
export { KubeletDocumentError, parsePodList, parseStatsSummary } from './kubelet-documents.js';
export type {
  ContainerStats,
  ContainerStatus,
  CpuStats,
  FsStats,
  MemoryStats,
  NetworkStats,
  NodeStats,
  OwnerReference,
  Pod,
  PodList,
  PodMetadata,
  PodReference,
  PodStats,
  PodStatus,
  StatsSummary,
} from './kubelet-documents.js';
export { OutageLog } from './outage-log.js';
export type { OutageLogLine } from './outage-log.js';
export type { PodsSeriesState } from './pod-status-series.js';
export type { Labels, Sample } from './sample.js';
export { resolveWorkload } from './workload.js';
export type { Workload, WorkloadKind } from './workload.js';
export { CADVISOR_FAMILIES } from './cadvisor-readings.js';
