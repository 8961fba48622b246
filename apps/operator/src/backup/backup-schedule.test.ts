import { describe, expect, it } from 'vitest';

import { BackupSchedule, scheduledBackupName } from './backup-schedule.js';

describe('BackupSchedule', () => {
  const every5 = BackupSchedule.parse('*/5 * * * *');

  it('finds the last run at or before now and the next one after it, in UTC', () => {
    expect(every5.lastRun(new Date('2030-01-01T00:05:00Z'))).toEqual(new Date('2030-01-01T00:05:00Z'));
    expect(every5.lastRun(new Date('2030-01-01T00:09:59Z'))).toEqual(new Date('2030-01-01T00:05:00Z'));
    expect(every5.nextRun(new Date('2030-01-01T00:05:00Z'))).toEqual(new Date('2030-01-01T00:10:00Z'));
    const daily = BackupSchedule.parse('30 2 * * *');
    expect(daily.nextRun(new Date('2030-01-01T03:00:00Z'))).toEqual(new Date('2030-01-02T02:30:00Z'));
  });

  it('refuses expressions that are not five-field cron', () => {
    expect(() => BackupSchedule.parse('* * * * * *')).toThrow(/6 fields/);
    expect(() => BackupSchedule.parse('nope * * * *')).toThrow();
  });

  it('names a slot after the VM and the minute of the run', () => {
    expect(scheduledBackupName('nr-a', new Date('2030-02-03T04:05:00Z'))).toBe('nr-a-20300203-0405');
  });
});
