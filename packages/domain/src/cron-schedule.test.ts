import { describe, expect, it } from 'vitest';

import { CronSchedule, cronScheduleProblem } from './cron-schedule.js';

describe('cron schedules', () => {
  it.each([
    '0 3 * * *',
    '*/15 * * * *',
    '0 0-23/2 * * 1-5',
    '30 4 1,15 * *',
    '0 3 * JAN-MAR mon-fri',
    '0 22 * * 7',
    '  5 4 * * sun  ',
    '0 12 31 12 0',
  ])('accepts %j', (schedule) => {
    expect(cronScheduleProblem(schedule)).toBeUndefined();
  });

  it.each([
    ['', 'five fields'],
    ['0 3 * *', 'five fields'],
    ['0 3 * * * *', 'five fields'],
    ['@daily', 'five fields'],
    ['60 3 * * *', 'minute'],
    ['0 24 * * *', 'hour'],
    ['0 3 0 * *', 'day-of-month'],
    ['0 3 * 13 *', 'month'],
    ['0 3 * * 8', 'day-of-week'],
    ['0 3 * * MON-SUNDAY', 'day-of-week'],
    ['*/0 * * * *', 'step'],
    ['0 5-2 * * *', 'backwards'],
    ['0 3,,4 * * *', 'hour'],
    ['0 3 * * ?', 'day-of-week'],
    ['0 3 L * *', 'day-of-month'],
    ['0 0 31 2 *', 'never runs'],
    ['0 0 31 4,6 *', 'never runs'],
  ])('refuses %j', (schedule, hint) => {
    expect(cronScheduleProblem(schedule)).toContain(hint);
  });
});

describe('CronSchedule', () => {
  const every5 = CronSchedule.parse('*/5 * * * *');

  it('finds the last run at or before now and the next one after it, in UTC', () => {
    expect(every5.lastRun(new Date('2030-01-01T00:05:00Z'))).toEqual(new Date('2030-01-01T00:05:00Z'));
    expect(every5.lastRun(new Date('2030-01-01T00:09:59Z'))).toEqual(new Date('2030-01-01T00:05:00Z'));
    expect(every5.nextRun(new Date('2030-01-01T00:05:00Z'))).toEqual(new Date('2030-01-01T00:10:00Z'));
    const daily = CronSchedule.parse('30 2 * * *');
    expect(daily.nextRun(new Date('2030-01-01T03:00:00Z'))).toEqual(new Date('2030-01-02T02:30:00Z'));
    const leapDays = CronSchedule.parse('0 0 29 2 *');
    expect(leapDays.nextRun(new Date('2030-01-01T00:00:00Z'))).toEqual(new Date('2032-02-29T00:00:00Z'));
  });

  it('refuses what cronScheduleProblem refuses, naming the problem', () => {
    expect(() => CronSchedule.parse('* * * * * *')).toThrow(/five fields/);
    expect(() => CronSchedule.parse('nope * * * *')).toThrow(/minute/);
    expect(() => CronSchedule.parse('0 0 31 2 *')).toThrow(/never runs/);
  });
});
