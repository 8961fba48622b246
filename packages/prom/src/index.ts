export { ExpositionError, parseExposition, scanExposition } from './exposition-parser.js';
export type { ExpositionFamily, ExpositionSample, MetricType, SampleHandler } from './exposition-parser.js';
export { counter, gauge } from './metric-family.js';
export type { MetricFamily, MetricSample } from './metric-family.js';
export { TEXT_EXPOSITION_CONTENT_TYPE, formatSampleValue, renderTextExposition } from './text-exposition.js';
