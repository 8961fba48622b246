import { abortError, Backoff, sleep } from '@noderings/retry';

import { TaskFailedError, TaskTimeoutError, parseTaskExitStatus } from './errors.js';
import type { TaskLogLine, TaskStatus } from './types.js';

export interface WaitForTaskOptions {
  /** Stops waiting (not the task) at once, rejecting with the signal's reason. */
  signal?: AbortSignal;
  /** First poll interval; it doubles up to `pollMaxMs`. Default 200 ms. */
  pollMinMs?: number;
  /** Default 2 s. */
  pollMaxMs?: number;
  /** Gives up with TaskTimeoutError after this long. Default one hour (backups and clones can be slow). */
  timeoutMs?: number;
  /** Log lines kept on a TaskFailedError. Default 20. */
  logTailLines?: number;
}

export interface TaskResult {
  upid: string;
  /** `OK` or `WARNINGS: n`. */
  exitstatus: string;
  warnings: number;
  status: TaskStatus;
}

/** The two reads the waiter needs; ProxmoxClient provides them. */
export interface TaskReader {
  getTaskStatus(node: string, upid: string, options?: { signal?: AbortSignal }): Promise<TaskStatus>;
  getTaskLogPage(
    node: string,
    upid: string,
    page: { start: number; limit: number; signal?: AbortSignal },
  ): Promise<{ lines: TaskLogLine[]; total: number | undefined }>;
}

const DEFAULT_POLL_MIN_MS = 200;
const DEFAULT_POLL_MAX_MS = 2_000;
const DEFAULT_TIMEOUT_MS = 60 * 60 * 1000;
const DEFAULT_LOG_TAIL_LINES = 20;

/** Polls a task until it stops; resolves on `OK`/`WARNINGS: n`, throws TaskFailedError otherwise. */
export async function waitForTask(
  reader: TaskReader,
  node: string,
  upid: string,
  options: WaitForTaskOptions = {},
  now: () => number = Date.now,
): Promise<TaskResult> {
  const { signal } = options;
  const minMs = options.pollMinMs ?? DEFAULT_POLL_MIN_MS;
  const poll = new Backoff({
    baseMs: minMs,
    maxMs: Math.max(options.pollMaxMs ?? DEFAULT_POLL_MAX_MS, minMs),
    jitter: 0,
  });
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = now() + timeoutMs;
  for (let polls = 1; ; polls++) {
    signal?.throwIfAborted();
    const status = await reader.getTaskStatus(node, upid, { signal });
    if (status.status === 'stopped') return settle(reader, node, upid, status, options);
    const remaining = deadline - now();
    if (remaining <= 0) throw new TaskTimeoutError({ upid, timeoutMs });
    if (!(await sleep(Math.min(poll.delayMs(polls), remaining), signal)) && signal) throw abortError(signal);
  }
}

async function settle(
  reader: TaskReader,
  node: string,
  upid: string,
  status: TaskStatus,
  options: WaitForTaskOptions,
): Promise<TaskResult> {
  const exitstatus = status.exitstatus ?? 'unexpected status';
  const exit = parseTaskExitStatus(exitstatus);
  if (exit.ok) return { upid, exitstatus, warnings: exit.warnings, status };
  const logTail = await readLogTail(reader, node, upid, options);
  throw new TaskFailedError({ upid, exitstatus, logTail });
}

/** The log's last lines; a log that cannot be read must not hide the task's own error. */
async function readLogTail(
  reader: TaskReader,
  node: string,
  upid: string,
  options: WaitForTaskOptions,
): Promise<string[]> {
  const limit = options.logTailLines ?? DEFAULT_LOG_TAIL_LINES;
  const { signal } = options;
  try {
    let page = await reader.getTaskLogPage(node, upid, { start: 0, limit, signal });
    if (page.total !== undefined && page.total > page.lines.length) {
      page = await reader.getTaskLogPage(node, upid, { start: page.total - limit, limit, signal });
    }
    return page.lines.map((line) => line.t);
  } catch (e: unknown) {
    signal?.throwIfAborted();
    return [`(task log unavailable: ${e instanceof Error ? e.message : String(e)})`];
  }
}
