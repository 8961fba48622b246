import { describe, expect, test } from 'vitest';

import { TaskFailedError, TaskTimeoutError, VmRunningError } from './errors.js';
import { waitForTask } from './task-waiter.js';
import type { TaskReader } from './task-waiter.js';
import type { TaskLogLine, TaskStatus } from './types.js';

const UPID = 'UPID:pve1:0000ABCD:00001234:679A423B:qmstart:100:root@pam!sim:';

function status(exitstatus?: string): TaskStatus {
  return {
    upid: UPID,
    node: 'pve1',
    pid: 0xabcd,
    pstart: 0x1234,
    starttime: 0x679a423b,
    type: 'qmstart',
    id: '100',
    user: 'root@pam',
    tokenid: 'sim',
    status: exitstatus === undefined ? 'running' : 'stopped',
    ...(exitstatus === undefined ? {} : { exitstatus }),
  };
}

/** A task that runs for `runningPolls` polls, then stops with `exitstatus`, and has `log` as its log. */
function fakeTask(runningPolls: number, exitstatus: string, log: string[] = []) {
  const pages: { start: number; limit: number }[] = [];
  let polls = 0;
  const reader: TaskReader = {
    getTaskStatus: (_node, upid, options) => {
      expect(upid).toBe(UPID);
      options?.signal?.throwIfAborted();
      polls += 1;
      return Promise.resolve(status(polls > runningPolls ? exitstatus : undefined));
    },
    getTaskLogPage: (_node, _upid, page) => {
      pages.push({ start: page.start, limit: page.limit });
      const lines: TaskLogLine[] = log
        .map((t, i) => ({ n: i + 1, t }))
        .slice(page.start, page.start + page.limit);
      return Promise.resolve({ lines, total: log.length });
    },
  };
  return { reader, pages, polls: () => polls };
}

const FAST = { pollMinMs: 1, pollMaxMs: 4 };

describe('waitForTask', () => {
  test('polls until the task stops with OK', async () => {
    const task = fakeTask(3, 'OK');
    const result = await waitForTask(task.reader, 'pve1', UPID, FAST);
    expect(result).toMatchObject({ upid: UPID, exitstatus: 'OK', warnings: 0 });
    expect(task.polls()).toBe(4);
    expect(task.pages).toEqual([]);
  });

  test('WARNINGS: n is a success that reports the count', async () => {
    const result = await waitForTask(fakeTask(0, 'WARNINGS: 2').reader, 'pve1', UPID, FAST);
    expect(result.exitstatus).toBe('WARNINGS: 2');
    expect(result.warnings).toBe(2);
  });

  test('any other exit status is TaskFailedError with the tail of the log', async () => {
    const log = [
      ...Array.from({ length: 28 }, (_, i) => `line ${i + 1}`),
      'VM 100 already running',
      'TASK ERROR: VM 100 already running',
    ];
    const task = fakeTask(1, 'VM 100 already running', log);
    const error = await waitForTask(task.reader, 'pve1', UPID, { ...FAST, logTailLines: 3 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TaskFailedError);
    const failed = error as TaskFailedError;
    expect(failed.exitstatus).toBe('VM 100 already running');
    expect(failed.upid).toBe(UPID);
    expect(failed.logTail).toEqual([
      'line 28',
      'VM 100 already running',
      'TASK ERROR: VM 100 already running',
    ]);
    expect(failed.reason).toBeInstanceOf(VmRunningError);
    expect(task.pages).toEqual([
      { start: 0, limit: 3 },
      { start: 27, limit: 3 },
    ]);
  });

  test('a log that cannot be read does not hide the task error', async () => {
    const task = fakeTask(0, 'job errors');
    task.reader.getTaskLogPage = () => Promise.reject(new Error('connection reset'));
    const error = await waitForTask(task.reader, 'pve1', UPID, FAST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect((error as TaskFailedError).logTail[0]).toContain('connection reset');
  });

  test('an abort rejects at once with an AbortError, even in a long pause', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const waiting = waitForTask(fakeTask(1_000, 'OK').reader, 'pve1', UPID, {
      pollMinMs: 60_000,
      pollMaxMs: 60_000,
      signal: controller.signal,
    });
    setTimeout(() => {
      controller.abort();
    }, 20);
    const error = await waiting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  test('an already aborted signal does not poll at all', async () => {
    const task = fakeTask(0, 'OK');
    const reason = new Error('shutting down');
    await expect(waitForTask(task.reader, 'pve1', UPID, { signal: AbortSignal.abort(reason) })).rejects.toBe(
      reason,
    );
    expect(task.polls()).toBe(0);
  });

  test('gives up after timeoutMs with TaskTimeoutError', async () => {
    const error = await waitForTask(fakeTask(1_000_000, 'OK').reader, 'pve1', UPID, {
      ...FAST,
      timeoutMs: 30,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskTimeoutError);
    expect((error as TaskTimeoutError).upid).toBe(UPID);
  });

  test('polls less often as the task goes on', async () => {
    const task = fakeTask(1_000_000, 'OK');
    await waitForTask(task.reader, 'pve1', UPID, { pollMinMs: 10, pollMaxMs: 80, timeoutMs: 400 }).catch(
      () => undefined,
    );
    // 10+20+40+80+80+80+80 ≈ 390 ms: about 8 polls, where a fixed 10 ms interval would make about 40.
    expect(task.polls()).toBeGreaterThanOrEqual(2);
    expect(task.polls()).toBeLessThanOrEqual(12);
  });
});
