import type { FieldViolation } from './domain-error.js';
import { amountInCurrencyProblem } from './currency.js';
import type { Problem } from './node-settings.js';

/** Extras a provider sells beside a plan: backups, snapshots, additional IP addresses. */
export const ADDON_TYPES = ['ADDON_TYPE_BACKUP', 'ADDON_TYPE_SNAPSHOT', 'ADDON_TYPE_ADDITIONAL_IP'] as const;
export type AddonType = (typeof ADDON_TYPES)[number];

/** Days a backup is kept (the policy keeps one backup a day at most). */
export const BACKUP_RETENTION = { min: 1, max: 365 } as const;

const MAX_ADDON_CODE_LENGTH = 64;
const MAX_ADDON_NAME_LENGTH = 100;
const ADDON_CODE = /^[A-Z0-9]+(?:[-_][A-Z0-9]+)*$/;

/** When and how long a backup addon's VMs are backed up; the node decides where and how compressed. */
export interface BackupPolicy {
  /** Five-field cron (see cron-schedule.ts). */
  readonly schedule: string;
  readonly retention: number;
}

/** What an addon costs a month: a fixed amount, or a share of the plan's charge. */
export type AddonPricingDefinition =
  | { readonly kind: 'fixed'; readonly currency: string; readonly unitAmount: string }
  | {
      readonly kind: 'percentage';
      readonly currency: string;
      readonly percentageValue: number;
      readonly zeroBaseFallbackAmount: string;
    };

export interface AddonDefinition {
  readonly name: string;
  readonly pricing: AddonPricingDefinition;
  readonly addonType: AddonType;
  readonly compatiblePlanIds: readonly string[];
  readonly backupPolicy: BackupPolicy | null;
}

export function addonCodeProblem(code: string): Problem {
  if (code.length > MAX_ADDON_CODE_LENGTH) return `must be at most ${MAX_ADDON_CODE_LENGTH} characters`;
  if (!ADDON_CODE.test(code))
    return 'must be upper-case letters and digits in groups joined by "-" or "_", like BACKUP-DAILY';
  return undefined;
}

export function addonNameProblem(name: string): Problem {
  if (name.trim() === '') return 'must not be blank';
  return name.length > MAX_ADDON_NAME_LENGTH
    ? `must be at most ${MAX_ADDON_NAME_LENGTH} characters`
    : undefined;
}

/** The rules that tie an addon's fields together, with its fields' names as paths. */
export function addonDefinitionViolations(addon: AddonDefinition): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const nameProblem = addonNameProblem(addon.name);
  if (nameProblem !== undefined) violations.push({ field: 'name', description: nameProblem });
  const isBackup = addon.addonType === 'ADDON_TYPE_BACKUP';
  if (isBackup && addon.backupPolicy === null)
    violations.push({ field: 'backupPolicy', description: 'is required for ADDON_TYPE_BACKUP addons' });
  if (!isBackup && addon.backupPolicy !== null)
    violations.push({ field: 'backupPolicy', description: 'applies to ADDON_TYPE_BACKUP addons only' });
  const { pricing } = addon;
  const [amountField, amount] =
    pricing.kind === 'fixed'
      ? ['pricing.unitAmount', pricing.unitAmount]
      : ['pricing.zeroBaseFallbackAmount', pricing.zeroBaseFallbackAmount];
  const precision = amountInCurrencyProblem(amount, pricing.currency);
  if (precision !== undefined) violations.push({ field: amountField, description: precision });
  addon.compatiblePlanIds.forEach((id, i) => {
    if (addon.compatiblePlanIds.indexOf(id) !== i)
      violations.push({ field: `compatiblePlanIds.${i}`, description: 'names a plan twice' });
  });
  return violations;
}
