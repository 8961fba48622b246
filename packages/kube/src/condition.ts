import type { Condition, ConditionStatus } from './crd-types.js';

export interface ConditionUpdate {
  type: string;
  status: ConditionStatus;
  /** CamelCase, e.g. `CloneFailed`. */
  reason: string;
  message: string;
}

/** The condition that says whether an object is as its spec asks; False carries why not. */
export const READY_CONDITION = 'Ready';

const CAMEL_CASE = /^[A-Z][A-Za-z0-9]*$/;

/**
 * Returns `conditions` with `update` applied for the object's current `generation`. Only a flip of
 * `status` moves `lastTransitionTime`; an update that changes nothing returns the same array, so callers
 * can skip the write by comparing identity.
 */
export function setCondition(
  conditions: readonly Condition[] | undefined,
  update: ConditionUpdate,
  observedGeneration: number | undefined,
  now: Date = new Date(),
): Condition[] {
  if (!CAMEL_CASE.test(update.type)) throw new TypeError(`Condition types are CamelCase: ${update.type}`);
  if (!CAMEL_CASE.test(update.reason))
    throw new TypeError(`Condition reasons are CamelCase: ${update.reason}`);
  const list = conditions ?? [];
  const existing = list.find((c) => c.type === update.type);
  const next: Condition = {
    type: update.type,
    status: update.status,
    reason: update.reason,
    message: update.message,
    ...(observedGeneration === undefined ? {} : { observedGeneration }),
    lastTransitionTime: existing?.status === update.status ? existing.lastTransitionTime : now.toISOString(),
  };
  if (existing !== undefined && sameCondition(existing, next)) return list as Condition[];
  return existing === undefined ? [...list, next] : list.map((c) => (c === existing ? next : c));
}

export function findCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

export function isConditionTrue(conditions: readonly Condition[] | undefined, type: string): boolean {
  return findCondition(conditions, type)?.status === 'True';
}

export function removeCondition(conditions: readonly Condition[] | undefined, type: string): Condition[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}

function sameCondition(a: Condition, b: Condition): boolean {
  return (
    a.status === b.status &&
    a.reason === b.reason &&
    a.message === b.message &&
    a.observedGeneration === b.observedGeneration &&
    a.lastTransitionTime === b.lastTransitionTime
  );
}
