import { TerminalError } from '@noderings/kube';
import type { Logger } from '@noderings/log';

import { reconcileFailure } from './error-mapping.js';
import type { ReconcileFailure } from './error-mapping.js';

type LogLevel = 'info' | 'warn' | 'error';

/** How one reconciler records a failed step. */
export interface FailureRecording<T> {
  signal: AbortSignal;
  log: Logger;
  /** The log line a failure is reported under, with its reason and message as fields. */
  msg: string;
  /** Log levels of a terminal and of a retryable failure. Default `error` and `warn`. */
  levels?: { terminal: LogLevel; retryable: LogLevel };
  /**
   * Writes the failure into the object's status. A write that fails is logged and does not replace
   * the failure itself.
   */
  record: (failure: ReconcileFailure, error: unknown) => Promise<unknown>;
  /**
   * How a terminal failure ends the reconcile. Default: thrown as a TerminalError, so the key is not
   * retried.
   */
  onTerminal?: (failure: ReconcileFailure, error: unknown) => T;
}

/**
 * Runs `step`; when it fails, the error is classified once (`reconcileFailure`), logged, recorded in
 * status, and rethrown: as a TerminalError when retrying cannot help, as it was otherwise. A step cut
 * short by the reconcile's own signal is rethrown untouched and not recorded.
 */
export async function withFailureRecording<T>(
  step: () => Promise<T>,
  recording: FailureRecording<T>,
): Promise<T> {
  try {
    return await step();
  } catch (e: unknown) {
    if (recording.signal.aborted) throw e;
    const { log, levels = { terminal: 'error', retryable: 'warn' } } = recording;
    const failure = reconcileFailure(e);
    log[failure.terminal ? levels.terminal : levels.retryable](
      { reason: failure.reason, message: failure.message },
      recording.msg,
    );
    await recording.record(failure, e).catch((statusError: unknown) => {
      log.warn({ error: statusError }, 'could not record the failure');
    });
    if (!failure.terminal) throw e;
    if (recording.onTerminal !== undefined) return recording.onTerminal(failure, e);
    if (e instanceof TerminalError) throw e;
    throw new TerminalError(failure.reason, failure.message, { cause: e });
  }
}
