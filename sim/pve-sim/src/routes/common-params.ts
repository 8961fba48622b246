import type { ParamSpec } from '../param-schema.js';
import { nodeFormat, storageIdFormat, vmidFormat } from '../pve-formats.js';

export const NODE: ParamSpec = { type: 'string', format: nodeFormat };
export const VMID: ParamSpec = { type: 'integer', format: vmidFormat };
export const STORAGE: ParamSpec = { type: 'string', format: storageIdFormat };
export const OPTIONAL_STORAGE: ParamSpec = { ...STORAGE, optional: true };
export const OPTIONAL_BOOLEAN: ParamSpec = { type: 'boolean', optional: true };
export const OPTIONAL_STRING: ParamSpec = { type: 'string', optional: true };
export const DIGEST: ParamSpec = { type: 'string', optional: true, maxLength: 64 };
