export type { StatusCause } from './status-cause.js';
export { validateCustomResource } from './validate-custom-resource.js';
export { validateCustomResourceDefinition } from './validate-custom-resource-definition.js';
export { evaluateJsonPath } from './evaluate-json-path.js';
