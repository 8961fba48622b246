import type { CronExpression } from 'cron-parser';
import { CronExpressionParser } from 'cron-parser';

import type { Problem } from './node-settings.js';

/*
 * Five-field cron schedules (`minute hour day-of-month month day-of-week`), as the ProxmoxVM backup policy
 * carries them (`0 3 * * *`), evaluated in UTC. Each field is `*` or a comma list of values and ranges, each
 * optionally stepped (`*\/15`, `1-5`, `8-18/2`, `MON-FRI`); day-of-week 0 and 7 are both Sunday. Macros
 * such as `@daily` and cron-parser's extensions (`L`, `#`, `?`, a seconds field) are refused, so that the
 * grammar stays the one the API documents. What passes that check is then handed to cron-parser, the
 * library the operator schedules with, so a schedule the API accepts is one the operator can run: a date
 * that never occurs (`0 0 31 2 *`) is refused here rather than failing on the VM.
 */
interface CronField {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
}

const FIELDS: readonly CronField[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'],
  },
  { name: 'day-of-week', min: 0, max: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
];

const MAX_SCHEDULE_LENGTH = 100;
const PART = /^(\*|[A-Za-z0-9]+(?:-[A-Za-z0-9]+)?)(?:\/(\d+))?$/;

function valueOf(text: string, field: CronField): number | undefined {
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    return n >= field.min && n <= field.max ? n : undefined;
  }
  const index = field.names?.indexOf(text.toUpperCase()) ?? -1;
  return index < 0 ? undefined : index + field.min;
}

function partProblem(part: string, field: CronField): Problem {
  const match = PART.exec(part);
  const where = `the ${field.name} field's "${part}"`;
  if (match === null) return `${where} is not a value, range or step`;
  const [, range = '', step] = match;
  if (step !== undefined && (Number(step) < 1 || Number(step) > field.max))
    return `${where} has a step outside 1-${field.max}`;
  if (range === '*') return undefined;
  const [from = '', to] = range.split('-');
  const start = valueOf(from, field);
  const end = to === undefined ? start : valueOf(to, field);
  if (start === undefined || end === undefined)
    return `${where} is outside ${field.min}-${field.max}${field.names === undefined ? '' : ' (or a name)'}`;
  if (start > end) return `${where} is a range that runs backwards`;
  return undefined;
}

function grammarProblem(schedule: string): Problem {
  if (schedule.length > MAX_SCHEDULE_LENGTH) return `must be at most ${MAX_SCHEDULE_LENGTH} characters`;
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== FIELDS.length)
    return 'must have five fields: minute hour day-of-month month day-of-week, like "0 3 * * *"';
  for (const [i, text] of fields.entries()) {
    const field = FIELDS[i];
    if (field === undefined) break;
    for (const part of text.split(',')) {
      const problem = partProblem(part, field);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}

function expressionAt(schedule: string, currentDate: Date): CronExpression {
  return CronExpressionParser.parse(schedule.trim(), { currentDate, tz: 'UTC', strict: false });
}

/** Why `schedule` is not a five-field cron schedule that runs, or undefined when it is one. */
export function cronScheduleProblem(schedule: string): Problem {
  const problem = grammarProblem(schedule);
  if (problem !== undefined) return problem;
  let expression: CronExpression;
  try {
    expression = expressionAt(schedule, new Date(0));
  } catch (e: unknown) {
    return `never runs (${e instanceof Error ? e.message : String(e)})`;
  }
  return expression.hasNext() ? undefined : 'never runs';
}

/** A five-field cron schedule (minute resolution), evaluated in UTC. */
export class CronSchedule {
  private constructor(private readonly expression: string) {}

  /** Throws an Error naming the problem (see `cronScheduleProblem`) when `expression` is not a schedule. */
  static parse(expression: string): CronSchedule {
    const problem = cronScheduleProblem(expression);
    if (problem !== undefined) throw new Error(`schedule '${expression}' ${problem}`);
    return new CronSchedule(expression);
  }

  /** The latest run at or before `now`, if the schedule has one. */
  lastRun(now: Date): Date | undefined {
    const cron = expressionAt(this.expression, new Date(now.getTime() + 1));
    return cron.hasPrev() ? cron.prev().toDate() : undefined;
  }

  /** The first run after `now`, if the schedule has one. */
  nextRun(now: Date): Date | undefined {
    const cron = expressionAt(this.expression, now);
    return cron.hasNext() ? cron.next().toDate() : undefined;
  }
}
