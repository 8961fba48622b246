/** A test-control rule: requests matching `method` and the `path` pattern misbehave as described. */
export interface FaultRule {
  id: number;
  method?: string;
  /** A regular expression tested against the path under `/api2/json` (e.g. `/qemu/\d+/clone$`). */
  path: string;
  /** Answer with this HTTP status and message instead of handling the request. */
  status?: number;
  message?: string;
  /** Delay before the request is handled (or answered with the fault). */
  delayMs?: number;
  /** Let the request through, but make the task it starts fail with this message. */
  taskError?: string;
  /** Let the request through, and make the task it starts log this many warnings (`WARNINGS: n`). */
  taskWarnings?: number;
  /** Let the request through, and make the task it starts run this long (its locks held throughout). */
  taskMs?: number;
  /** Close the connection without answering (a reset, as when a node goes away mid-request). */
  drop?: boolean;
  /** Chance (0–1) that a matching request is affected; default 1. */
  probability?: number;
  /** How many matching requests are affected before the rule retires; default unlimited. */
  count?: number;
  /** How many requests the rule has affected. */
  hits: number;
}

export type FaultInput = Omit<FaultRule, 'id' | 'hits'>;

export class FaultInjector {
  private rules: FaultRule[] = [];
  private nextId = 1;

  add(input: FaultInput): FaultRule {
    const rule: FaultRule = { ...validate(input), id: this.nextId++, hits: 0 };
    this.rules.push(rule);
    return rule;
  }

  remove(id: number): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.id !== id);
    return this.rules.length < before;
  }

  clear(): void {
    this.rules = [];
  }

  list(): readonly FaultRule[] {
    return this.rules;
  }

  /** The first live rule matching the request, counted as a hit. */
  match(method: string, path: string): FaultRule | undefined {
    for (const rule of this.rules) {
      if (rule.method !== undefined && rule.method.toUpperCase() !== method) continue;
      if (!new RegExp(rule.path).test(path)) continue;
      if (rule.count !== undefined && rule.hits >= rule.count) continue;
      if (rule.probability !== undefined && Math.random() >= rule.probability) continue;
      rule.hits++;
      return rule;
    }
    return undefined;
  }
}

function validate(input: FaultInput): FaultInput {
  if (typeof input.path !== 'string') throw new Error('a fault needs a "path" pattern');
  for (const key of ['method', 'message', 'taskError'] as const) {
    if (input[key] !== undefined && typeof input[key] !== 'string')
      throw new Error(`"${key}" must be a string`);
  }
  new RegExp(input.path); // throws a SyntaxError for a bad pattern
  if (
    input.status !== undefined &&
    (!Number.isInteger(input.status) || input.status < 100 || input.status > 599)
  ) {
    throw new Error('"status" must be an HTTP status code');
  }
  if (!hasEffect(input))
    throw new Error('a fault needs "status", "taskError", "taskWarnings", "taskMs", "drop" or "delayMs"');
  for (const key of ['delayMs', 'count', 'probability', 'taskWarnings', 'taskMs'] as const) {
    const v = input[key];
    if (v !== undefined && (typeof v !== 'number' || v < 0))
      throw new Error(`"${key}" must be a non-negative number`);
  }
  return {
    path: input.path,
    ...(input.method !== undefined ? { method: input.method.toUpperCase() } : {}),
    ...(input.status !== undefined ? { status: input.status } : {}),
    ...(input.message !== undefined ? { message: input.message } : {}),
    ...(input.delayMs !== undefined ? { delayMs: input.delayMs } : {}),
    ...(input.taskError !== undefined ? { taskError: input.taskError } : {}),
    ...(input.taskWarnings !== undefined ? { taskWarnings: input.taskWarnings } : {}),
    ...(input.taskMs !== undefined ? { taskMs: input.taskMs } : {}),
    ...(input.drop === true ? { drop: true } : {}),
    ...(input.probability !== undefined ? { probability: input.probability } : {}),
    ...(input.count !== undefined ? { count: input.count } : {}),
  };
}

function hasEffect(input: FaultInput): boolean {
  return (
    [input.status, input.taskError, input.delayMs, input.taskWarnings, input.taskMs].some(
      (v) => v !== undefined,
    ) || input.drop === true
  );
}

export interface CallRecord {
  method: string;
  path: string;
  status: number;
  at: string;
  identity?: string;
}

/** The log of API calls received, so that tests can count calls per operation. */
export class CallLog {
  private calls: CallRecord[] = [];
  private static readonly LIMIT = 100_000;

  record(call: CallRecord): void {
    this.calls.push(call);
    if (this.calls.length > CallLog.LIMIT) this.calls.splice(0, this.calls.length - CallLog.LIMIT);
  }

  list(): readonly CallRecord[] {
    return this.calls;
  }

  clear(): void {
    this.calls = [];
  }
}
