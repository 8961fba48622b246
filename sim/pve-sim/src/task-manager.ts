import { TaskError } from './pve-error.js';
import type { Identity } from './access-control.js';

export interface TaskRecord {
  upid: string;
  node: string;
  pid: number;
  pstart: number;
  starttime: number;
  type: string;
  id: string;
  user: string;
  tokenid?: string;
  status: 'running' | 'stopped';
  exitstatus?: string;
  endtime?: number;
  log: string[];
}

export interface TaskLog {
  (line: string): void;
  warn(line: string): void;
  /**
   * Lets the task's duration pass. Workers run their checks at once, as PVE's do, then call this where
   * the slow part (copying, booting, writing) belongs; a worker that never calls it ends after it anyway.
   */
  elapse(): Promise<void>;
}

export interface TaskStart {
  node: string;
  type: string;
  id: string;
  identity: Identity;
  /** The worker: throwing a TaskError fails the task with that message. */
  work: (log: TaskLog) => Promise<void> | void;
  /** Runs when the task ends, whatever the outcome (lock release and the like). */
  finally?: () => void;
  /** An injected failure: the task fails with this message instead of running its worker. */
  injectedError?: string;
  /** Overrides the default task duration. */
  durationMs?: number;
}

const pad8 = (n: number): string => n.toString(16).toUpperCase().padStart(8, '0');

/**
 * Runs simulated worker tasks with PVE's UPIDs, status and log. Each task's worker runs after the
 * configured duration, so that callers see it `running` first, as they would on a real node.
 */
export class TaskManager {
  private readonly tasks = new Map<string, TaskRecord>();
  private nextPid = 0x1000;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly pstart = Math.floor(process.uptime() * 100) + 0x4000;

  constructor(
    private readonly durationMs: number,
    private readonly onChange: () => void = () => undefined,
  ) {}

  start(task: TaskStart): string {
    const pid = this.nextPid++;
    const starttime = Math.floor(Date.now() / 1000);
    // A UPID field cannot hold ':'; ids such as volids are escaped (and '/' too, to stay one path segment).
    const id = task.id.replaceAll(':', '\\x3A').replaceAll('/', '\\x2F');
    const upid = `UPID:${task.node}:${pad8(pid)}:${pad8(this.pstart)}:${pad8(starttime)}:${task.type}:${id}:${task.identity.id}:`;
    const record: TaskRecord = {
      upid,
      node: task.node,
      pid,
      pstart: this.pstart,
      starttime,
      type: task.type,
      id,
      user: task.identity.userid,
      ...(task.identity.tokenid !== undefined ? { tokenid: task.identity.tokenid } : {}),
      status: 'running',
      log: [],
    };
    this.tasks.set(upid, record);
    setImmediate(() => {
      void this.run(record, task, Date.now() + (task.durationMs ?? this.durationMs));
    });
    return upid;
  }

  private async run(record: TaskRecord, task: TaskStart, endsAt: number): Promise<void> {
    let warnings = 0;
    const elapse = (): Promise<void> =>
      new Promise((resolve) => {
        const timer = setTimeout(
          () => {
            this.timers.delete(timer);
            resolve();
          },
          Math.max(0, endsAt - Date.now()),
        );
        this.timers.add(timer);
      });
    const log = Object.assign((line: string) => record.log.push(line), {
      warn: (line: string) => {
        warnings++;
        record.log.push(`WARN: ${line}`);
      },
      elapse,
    });
    try {
      if (task.injectedError !== undefined) {
        await elapse();
        throw new TaskError(task.injectedError);
      }
      await task.work(log);
      await elapse();
      record.exitstatus = warnings > 0 ? `WARNINGS: ${warnings}` : 'OK';
      record.log.push(warnings > 0 ? `TASK WARNINGS: ${warnings}` : 'TASK OK');
    } catch (e: unknown) {
      const message = e instanceof Error ? e.message : String(e);
      const first = message.split('\n')[0] ?? message;
      record.exitstatus = first;
      record.log.push(`TASK ERROR: ${first}`);
    } finally {
      task.finally?.();
      record.status = 'stopped';
      record.endtime = Math.floor(Date.now() / 1000);
      this.onChange();
    }
  }

  get(upid: string): TaskRecord | undefined {
    return this.tasks.get(upid);
  }

  list(node: string): TaskRecord[] {
    return [...this.tasks.values()].filter((t) => t.node === node);
  }

  /** Resolves when every task started so far has stopped. */
  async idle(): Promise<void> {
    while ([...this.tasks.values()].some((t) => t.status === 'running')) {
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  clear(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.tasks.clear();
  }
}

export function isUpid(value: string): boolean {
  return /^UPID:[a-zA-Z0-9-]+:[0-9A-F]{8}:[0-9A-F]{8,9}:[0-9A-F]{8}:[^:\s]+:[^:\s]*:[^:\s]+:$/.test(value);
}
