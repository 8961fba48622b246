import type { CronExpression } from 'cron-parser';
import { CronExpressionParser } from 'cron-parser';

const CRON_FIELDS = 5;

/** A five-field cron expression (minute resolution), evaluated in UTC. */
export class BackupSchedule {
  private constructor(private readonly expression: string) {}

  /** Throws an Error naming the problem when `expression` is not a five-field cron expression. */
  static parse(expression: string): BackupSchedule {
    const fields = expression.trim().split(/\s+/).length;
    if (fields !== CRON_FIELDS) {
      throw new Error(`schedule '${expression}' has ${fields} fields, not ${CRON_FIELDS}`);
    }
    const schedule = new BackupSchedule(expression);
    schedule.#at(new Date(0));
    return schedule;
  }

  /** The latest run at or before `now`, if the schedule has one. */
  lastRun(now: Date): Date | undefined {
    const cron = this.#at(new Date(now.getTime() + 1));
    return cron.hasPrev() ? cron.prev().toDate() : undefined;
  }

  /** The first run after `now`, if the schedule has one. */
  nextRun(now: Date): Date | undefined {
    const cron = this.#at(now);
    return cron.hasNext() ? cron.next().toDate() : undefined;
  }

  #at(currentDate: Date): CronExpression {
    return CronExpressionParser.parse(this.expression, { currentDate, tz: 'UTC', strict: false });
  }
}

/** `<vm>-YYYYMMDD-HHMM` (UTC): one name per slot, so a slot never gets two backups. */
export function scheduledBackupName(vmName: string, run: Date): string {
  const stamp = run.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  return `${vmName}-${stamp}`;
}
