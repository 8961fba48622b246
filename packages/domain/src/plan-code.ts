import type { Problem } from './node-settings.js';

/**
 * Plan codes like `SC-GC-2C-4G-40`: compute category (shared or dedicated), compute type, vCPUs, RAM in GiB
 * and disk in GiB. A code is derived from the plan's specs, so the marketplace can group the same offer of
 * many providers under one code; a code a client sends is only checked against the specs.
 */
export const COMPUTE_CATEGORIES = [
  'COMPUTE_CATEGORY_SHARED_COMPUTE',
  'COMPUTE_CATEGORY_DEDICATED_COMPUTE',
] as const;
export type ComputeCategory = (typeof COMPUTE_CATEGORIES)[number];

export const COMPUTE_TYPES = [
  'COMPUTE_TYPE_GENERAL_COMPUTE',
  'COMPUTE_TYPE_HIGH_FREQUENCY',
  'COMPUTE_TYPE_HIGH_PERFORMANCE',
  'COMPUTE_TYPE_GENERAL_PURPOSE',
  'COMPUTE_TYPE_CPU_OPTIMIZED',
  'COMPUTE_TYPE_MEMORY_OPTIMIZED',
  'COMPUTE_TYPE_STORAGE_OPTIMIZED',
  'COMPUTE_TYPE_VERY_HIGH_FREQUENCY',
  'COMPUTE_TYPE_GAME_SERVER',
] as const;
export type ComputeType = (typeof COMPUTE_TYPES)[number];

const CATEGORY_ABBREVIATIONS: Readonly<Record<ComputeCategory, string>> = {
  COMPUTE_CATEGORY_SHARED_COMPUTE: 'SC',
  COMPUTE_CATEGORY_DEDICATED_COMPUTE: 'DC',
};

const TYPE_ABBREVIATIONS: Readonly<Record<ComputeType, string>> = {
  COMPUTE_TYPE_GENERAL_COMPUTE: 'GC',
  COMPUTE_TYPE_HIGH_FREQUENCY: 'HF',
  COMPUTE_TYPE_HIGH_PERFORMANCE: 'HP',
  COMPUTE_TYPE_GENERAL_PURPOSE: 'GP',
  COMPUTE_TYPE_CPU_OPTIMIZED: 'CPU',
  COMPUTE_TYPE_MEMORY_OPTIMIZED: 'MEM',
  COMPUTE_TYPE_STORAGE_OPTIMIZED: 'STO',
  COMPUTE_TYPE_VERY_HIGH_FREQUENCY: 'VHF',
  COMPUTE_TYPE_GAME_SERVER: 'GS',
};

/** The abbreviations as they appear in codes (GC, HF, …), in the order of COMPUTE_TYPES. */
export const COMPUTE_TYPE_ABBREVIATIONS = COMPUTE_TYPES.map((t) => TYPE_ABBREVIATIONS[t]);

/** What a code says about a plan. */
export interface PlanCodeParts {
  readonly computeCategory: ComputeCategory;
  readonly computeType: ComputeType;
  readonly vcpus: number;
  readonly ramGb: number;
  readonly diskGb: number;
}

const POSITIVE = '([1-9][0-9]*)';
const PLAN_CODE = new RegExp(`^(SC|DC)-([A-Z]+)-${POSITIVE}C-${POSITIVE}G-${POSITIVE}$`);

export function derivePlanCode(parts: PlanCodeParts): string {
  const category = CATEGORY_ABBREVIATIONS[parts.computeCategory];
  const type = TYPE_ABBREVIATIONS[parts.computeType];
  return `${category}-${type}-${parts.vcpus}C-${parts.ramGb}G-${parts.diskGb}`;
}

function byValue<K extends string>(table: Readonly<Record<K, string>>, value: string): K | undefined {
  return (Object.keys(table) as K[]).find((key) => table[key] === value);
}

/** Undefined when the text is not a code of this form. */
export function parsePlanCode(code: string): PlanCodeParts | undefined {
  const match = PLAN_CODE.exec(code);
  if (match === null) return undefined;
  const [, category = '', type = '', vcpus, ramGb, diskGb] = match;
  const computeCategory = byValue(CATEGORY_ABBREVIATIONS, category);
  const computeType = byValue(TYPE_ABBREVIATIONS, type);
  if (computeCategory === undefined || computeType === undefined) return undefined;
  return { computeCategory, computeType, vcpus: Number(vcpus), ramGb: Number(ramGb), diskGb: Number(diskGb) };
}

/** A compute type named in full (COMPUTE_TYPE_HIGH_FREQUENCY) or as in codes (HF), in any case. */
export function findComputeType(text: string): ComputeType | undefined {
  const upper = text.trim().toUpperCase();
  return COMPUTE_TYPES.find((t) => t === upper || TYPE_ABBREVIATIONS[t] === upper);
}

/** Whether a code a client sent is the one the specs give. */
export function planCodeProblem(given: string, parts: PlanCodeParts): Problem {
  const derived = derivePlanCode(parts);
  if (given === derived) return undefined;
  if (parsePlanCode(given) === undefined)
    return `must look like ${derived}: SC|DC, the compute type, then vCPUs, RAM GiB and disk GiB`;
  return `does not match the plan's specs, which give ${derived}`;
}
