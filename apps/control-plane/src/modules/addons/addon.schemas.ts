import {
  ADDON_TYPES,
  addonCodeProblem,
  addonNameProblem,
  BACKUP_RETENTION,
  cronScheduleProblem,
} from '@noderings/domain';
import { z } from 'zod';

import { currencyCode, moneyAmount, percentage } from '../../http/money-schema.js';
import { ruled } from '../../http/ruled-schema.js';
import type { Addon } from './addon.repository.js';

export const addonPricing = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('fixed'),
      currency: currencyCode,
      unitAmount: moneyAmount.describe(
        'Per month (730 hours); other periods are charged pro rata by the hour.',
      ),
    }),
    z.strictObject({
      kind: z.literal('percentage'),
      currency: currencyCode,
      percentageValue: percentage.describe("Of the plan's charge for the period."),
      zeroBaseFallbackAmount: moneyAmount.describe(
        'Per month, charged instead when the plan itself costs nothing.',
      ),
    }),
  ])
  .meta({ id: 'AddonPricing' });

const addonPricingView = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fixed'), currency: z.string(), unitAmount: z.string() }),
  z.object({
    kind: z.literal('percentage'),
    currency: z.string(),
    percentageValue: z.number(),
    zeroBaseFallbackAmount: z.string(),
  }),
]);

const backupPolicy = z
  .strictObject({
    schedule: ruled(z.string().max(100), cronScheduleProblem).describe(
      'Five-field cron (minute hour day-of-month month day-of-week), like "0 3 * * *".',
    ),
    retention: z
      .number()
      .int()
      .min(BACKUP_RETENTION.min)
      .max(BACKUP_RETENTION.max)
      .describe('How many days a backup is kept.'),
  })
  .meta({ id: 'BackupPolicy' });

const editableFields = {
  name: ruled(z.string().max(100), addonNameProblem),
  pricing: addonPricing,
  compatiblePlanIds: z
    .array(z.uuid())
    .max(100)
    .describe('Plans of your organisation the addon may be bought with.'),
  autoAttach: z.boolean().describe('Added to every new VM of a compatible plan.'),
  isPublic: z.boolean(),
  backupPolicy: backupPolicy.describe('Required for ADDON_TYPE_BACKUP addons, refused on others.'),
};

export const createAddonBody = z.strictObject({
  ...editableFields,
  code: ruled(z.string().max(64), addonCodeProblem).describe(
    'Unique among your addons that are not deleted, like BACKUP-DAILY.',
  ),
  addonType: z.enum(ADDON_TYPES),
  compatiblePlanIds: editableFields.compatiblePlanIds.default([]),
  autoAttach: editableFields.autoAttach.default(false),
  isPublic: editableFields.isPublic.default(false),
  backupPolicy: editableFields.backupPolicy.optional(),
});

export const updateAddonBody = z.strictObject(editableFields).partial();

export const listAddonsQuery = z.object({
  addonType: z.enum(ADDON_TYPES).optional(),
  search: z.string().max(100).optional(),
});

export const addonView = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    code: z.string(),
    name: z.string(),
    addonType: z.enum(ADDON_TYPES),
    pricing: addonPricingView,
    compatiblePlanIds: z.array(z.string()),
    autoAttach: z.boolean(),
    isPublic: z.boolean(),
    backupPolicy: z.object({ schedule: z.string(), retention: z.number().int() }).nullable(),
    status: z.enum(['STATUS_ACTIVE', 'STATUS_SOFT_DELETED']),
    createTime: z.string(),
    updateTime: z.string(),
  })
  .meta({ id: 'Addon' });

export function toAddonView(a: Addon): z.infer<typeof addonView> {
  return {
    id: a.id,
    organizationId: a.organizationId,
    code: a.code,
    name: a.name,
    addonType: a.addonType,
    pricing: { ...a.pricing },
    compatiblePlanIds: [...a.compatiblePlanIds],
    autoAttach: a.autoAttach,
    isPublic: a.isPublic,
    backupPolicy: a.backupPolicy === null ? null : { ...a.backupPolicy },
    status: a.deletedAt === null ? 'STATUS_ACTIVE' : 'STATUS_SOFT_DELETED',
    createTime: a.createdAt.toISOString(),
    updateTime: a.updatedAt.toISOString(),
  };
}
