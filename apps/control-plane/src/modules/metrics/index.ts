export { type RemoteWriteTarget } from './remote-write-forwarder.js';
export { registerMetricsModule, type MetricsSettings } from './metrics.module.js';
