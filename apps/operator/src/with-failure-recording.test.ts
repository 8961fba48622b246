import { TerminalError } from '@noderings/kube';
import { captureLogs, type LogRecord } from '@noderings/log/log-capture';
import type { Logger } from '@noderings/log';
import { describe, expect, it } from 'vitest';

import type { ReconcileFailure } from './error-mapping.js';
import { OperatorError } from './operator-error.js';
import { withFailureRecording } from './with-failure-recording.js';

function setup(): {
  lines: LogRecord[];
  recorded: ReconcileFailure[];
  options: { signal: AbortSignal; log: Logger; msg: string; record: (f: ReconcileFailure) => Promise<void> };
} {
  const { logger, lines } = captureLogs();
  const recorded: ReconcileFailure[] = [];
  return {
    lines,
    recorded,
    options: {
      signal: new AbortController().signal,
      log: logger,
      msg: 'step failed',
      record: (failure) => {
        recorded.push(failure);
        return Promise.resolve();
      },
    },
  };
}

const fail = (error: Error) => (): Promise<never> => Promise.reject(error);

describe('withFailureRecording', () => {
  it('returns what the step returns and records nothing', async () => {
    const { recorded, lines, options } = setup();
    await expect(withFailureRecording(() => Promise.resolve(42), options)).resolves.toBe(42);
    expect(recorded).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('records a retryable failure, logs it as a warning and rethrows the same error', async () => {
    const { recorded, lines, options } = setup();
    const error = new OperatorError('GUEST_BUSY', 'guest VMID 100 is locked');
    await expect(withFailureRecording(fail(error), options)).rejects.toBe(error);
    expect(recorded).toEqual([{ terminal: false, reason: 'GuestBusy', message: 'guest VMID 100 is locked' }]);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'warn',
        msg: 'step failed',
        reason: 'GuestBusy',
        message: 'guest VMID 100 is locked',
      }),
    ]);
  });

  it('turns a terminal failure into a TerminalError with its reason and message', async () => {
    const { recorded, lines, options } = setup();
    const error = new OperatorError('NODE_NOT_FOUND', "node 'pve9' is not in the Proxmox cluster");
    const thrown: unknown = await withFailureRecording(fail(error), options).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(TerminalError);
    expect(thrown).toMatchObject({ reason: 'NodeNotFound', message: error.message, cause: error });
    expect(recorded[0]?.terminal).toBe(true);
    expect(lines[0]?.level).toBe('error');
  });

  it('rethrows a TerminalError as it is', async () => {
    const { options } = setup();
    const error = new TerminalError('VmNotFound', "ProxmoxVM 'nr-x' does not exist");
    await expect(withFailureRecording(fail(error), options)).rejects.toBe(error);
  });

  it('ends a terminal failure as onTerminal says, after recording it', async () => {
    const { recorded, options } = setup();
    const error = new TerminalError('VmNotRunning', 'start it first');
    const result = await withFailureRecording(fail(error), {
      ...options,
      levels: { terminal: 'warn', retryable: 'info' },
      onTerminal: () => ({ requeueAfter: 1000 }),
    });
    expect(result).toEqual({ requeueAfter: 1000 });
    expect(recorded.map((f) => f.reason)).toEqual(['VmNotRunning']);
  });

  it('logs a status write that fails and still throws the failure itself', async () => {
    const { lines, options } = setup();
    const error = new Error('connection reset');
    await expect(
      withFailureRecording(fail(error), {
        ...options,
        record: () => Promise.reject(new Error('409 conflict')),
      }),
    ).rejects.toBe(error);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ['warn', 'step failed'],
      ['warn', 'could not record the failure'],
    ]);
  });

  it('leaves a step cut short by its own signal unrecorded', async () => {
    const { recorded, lines, options } = setup();
    const controller = new AbortController();
    controller.abort();
    const error = new Error('aborted');
    await expect(withFailureRecording(fail(error), { ...options, signal: controller.signal })).rejects.toBe(
      error,
    );
    expect(recorded).toEqual([]);
    expect(lines).toEqual([]);
  });
});
