/**
 * A TypeScript prometheus-pve-exporter (3.10) with NodeRings' additions. As a library: collect the
 * families from any ProxmoxClient (render them with `@noderings/prom`), or run the whole HTTP exporter.
 */
export { collectPveMetrics } from './pve-collector.js';
export type { CollectOptions, PveReader } from './pve-collector.js';
export { startPveExporter } from './exporter-server.js';
export type { PveExporter, PveExporterOptions } from './exporter-server.js';
export { loadExporterConfig, parseExporterConfig } from './exporter-config.js';
export type { ExporterConfig, ModuleConfig } from './exporter-config.js';
export { ExporterError } from './exporter-error.js';
export type { ExporterErrorCode } from './exporter-error.js';
