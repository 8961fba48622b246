import { describe, expect, it } from 'vitest';

import { cronScheduleProblem } from './cron-schedule.js';

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
  ])('refuses %j', (schedule, hint) => {
    expect(cronScheduleProblem(schedule)).toContain(hint);
  });
});
