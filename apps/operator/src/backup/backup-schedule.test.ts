import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { cronScheduleProblem } from '@noderings/domain';
import type { ProxmoxVM, VMBackup } from '@noderings/kube';
import { CRD_API_VERSION, TerminalError } from '@noderings/kube';
import { captureLogs } from '@noderings/log/log-capture';

import { scheduledBackupName } from './backup-schedule.js';
import { BackupScheduleReconciler } from './backup-schedule.reconciler.js';

const NOW = new Date('2030-01-01T00:00:00Z');

function vmWith(schedule: string): ProxmoxVM {
  return {
    apiVersion: CRD_API_VERSION,
    kind: 'ProxmoxVM',
    metadata: { name: 'nr-a', namespace: 'ns', uid: 'u1', creationTimestamp: '2029-01-01T00:00:00Z' },
    spec: { backupPolicy: { schedule, retention: 2, storage: 'local', compression: 'zstd' } },
  } as unknown as ProxmoxVM;
}

/** Whether the operator's schedule reconciler takes the schedule (rather than failing the VM for good). */
async function operatorTakes(schedule: string): Promise<boolean> {
  const reconciler = new BackupScheduleReconciler({
    vms: { find: () => Promise.resolve(vmWith(schedule)) },
    backups: {
      list: () => Promise.resolve({ items: [] as VMBackup[], metadata: {} }),
      create: (b: VMBackup) => Promise.resolve(b),
      delete: () => Promise.resolve(),
    },
    logger: captureLogs().logger,
    clock: () => NOW,
  });
  try {
    await reconciler.reconcile('ns/nr-a', new AbortController().signal);
    return true;
  } catch (e: unknown) {
    if (e instanceof TerminalError && e.reason === 'InvalidSchedule') return false;
    throw e;
  }
}

const MONTHS = ['JAN', 'feb', 'APR', 'Jun', 'SEP', 'NOV', 'DEC'];
const DAYS = ['SUN', 'mon', 'FRI', 'SAT'];
const value = fc.oneof(
  fc.integer({ min: 0, max: 62 }).map(String),
  fc.constantFrom(...MONTHS, ...DAYS, 'L', '?', 'W', 'x'),
);
const part = fc.oneof(
  fc.constant('*'),
  value,
  fc.tuple(value, value).map(([a, b]) => `${a}-${b}`),
  fc
    .tuple(fc.oneof(fc.constant('*'), value), fc.integer({ min: 0, max: 61 }))
    .map(([a, step]) => `${a}/${step}`),
);
const field = fc.array(part, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(','));
/** Mostly small values in the day-of-month and month fields, so that dates that never occur come up. */
const dayOfMonth = fc.oneof(field, fc.constantFrom('29', '30', '31', '30,31'));
const month = fc.oneof(field, fc.constantFrom('2', 'FEB', '4', '2,4', '6', '9', '11'));
const expression = fc
  .tuple(field, field, dayOfMonth, month, fc.oneof(fc.constant('*'), field))
  .map((fields) => fields.join(' '));

describe('backup schedules', () => {
  it('are taken by the operator exactly when the API accepts them', async () => {
    await fc.assert(
      fc.asyncProperty(expression, async (schedule) => {
        expect(await operatorTakes(schedule)).toBe(cronScheduleProblem(schedule) === undefined);
      }),
      { numRuns: 500, seed: 18 },
    );
  });

  it('refuse a date that never occurs on both sides', async () => {
    expect(cronScheduleProblem('0 0 31 2 *')).toContain('never runs');
    expect(await operatorTakes('0 0 31 2 *')).toBe(false);
    expect(await operatorTakes('0 0 29 2 *')).toBe(true);
  });

  it('name a slot after the VM and the minute of the run', () => {
    expect(scheduledBackupName('nr-a', new Date('2030-02-03T04:05:00Z'))).toBe('nr-a-20300203-0405');
  });
});
