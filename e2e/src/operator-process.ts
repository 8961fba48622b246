import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

import { OPERATOR_NAMESPACE } from '@noderings/deploy';

import { formatListenAddress, type ListenAddress } from './listen-address.js';
import { SandboxError } from './sandbox-error.js';
import type { SandboxLog } from './sandbox-log.js';
import { repoPath, STOP_WITH_PARENT, TSX_LOADER } from './tsx-child.js';

export interface OperatorProcessOptions {
  /** A kubeconfig for the agent cluster (the operator's own service account). */
  readonly kubeconfigPath: string;
  readonly agentId: string;
  /** Where it serves `/metrics` and `/healthz`; port 0 picks a free one. */
  readonly metricsListen: ListenAddress;
  readonly log: SandboxLog;
}

export interface OperatorProcess {
  readonly pid: number;
  /** Like http://127.0.0.1:8084/metrics, as the operator reported it once started. */
  readonly metricsUrl: string;
  /** SIGTERM, then SIGKILL if it has not stopped in time; resolves once it has exited. */
  close(): Promise<void>;
}

const OPERATOR_MAIN = repoPath('apps/operator/src/main.ts');
/**
 * Its JSON log line once it serves, with the address it bound (a free one when asked for port 0); pino
 * writes `msg` after the fields, so the line is matched whatever their order.
 */
const STARTED_LINE = /^(?=.*"msg":"operator started").*?"metrics":"(http:[^"]+)"/m;
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
/** How long after an exit of the operator the sandbox may begin to stop for the exit to be expected. */
const EXPECTED_STOP_GRACE_MS = 1000;
/** Enough of its output to say why it did not start. */
const RECENT_OUTPUT_CHARS = 8192;

/**
 * The proxmox-operator as its own process, the way it runs for real (an app never imports another),
 * watching the agent's namespace with leader election off (one replica). Its log lines join the
 * sandbox's stream as `[operator] …`. Resolves once it has started; rejects, with what it printed, if it
 * exits or does not start in time.
 */
export async function startOperatorProcess(options: OperatorProcessOptions): Promise<OperatorProcess> {
  const child: ChildProcessByStdio<Writable, Readable, Readable> = spawn(
    process.execPath,
    [
      ...['--import', TSX_LOADER, '--import', STOP_WITH_PARENT, OPERATOR_MAIN],
      ...['--kubeconfig', options.kubeconfigPath],
      ...['--watch-namespace', `${options.agentId}-operator`],
      ...['--operator-namespace', OPERATOR_NAMESPACE],
      ...['--metrics-listen', formatListenAddress(options.metricsListen), '--no-leader-election'],
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  // A synchronous last word for the exits the sandbox does not clean up after (an uncaught error).
  const killOnExit = () => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) => {
    const gone = () => {
      process.off('exit', killOnExit);
      resolve();
    };
    child.once('exit', gone);
    // Never spawned: there is no exit to wait for.
    child.once('error', gone);
  });
  child.stdin.on('error', () => undefined);

  let stopping = false;
  const close = async () => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
      }, STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    child.stdin.destroy();
  };
  try {
    const metricsUrl = await startup(child, options.log, () => stopping);
    return { pid: child.pid ?? 0, metricsUrl, close };
  } catch (e: unknown) {
    await close();
    throw e;
  }
}

/**
 * Forwards the child's output to the log and resolves, with the metrics URL its started line gives, once
 * it has said it started; rejects with what it
 * printed if it fails to spawn, exits first, or takes too long. Later, an exit nobody asked for is logged.
 */
function startup(
  child: ChildProcessByStdio<Writable, Readable, Readable>,
  log: SandboxLog,
  stopping: () => boolean,
): Promise<string> {
  const writer = log.lineWriter('operator');
  let recent = '';
  let started = false;
  return new Promise<string>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timeout);
      reject(new SandboxError('OPERATOR_FAILED', `the operator ${why}:\n${recent}`));
    };
    const timeout = setTimeout(() => {
      fail(`did not start within ${String(START_TIMEOUT_MS / 1000)} s`);
    }, START_TIMEOUT_MS);
    const read = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      writer.write(text);
      if (started) return;
      recent = (recent + text).slice(-RECENT_OUTPUT_CHARS);
      const line = STARTED_LINE.exec(recent);
      if (line) {
        started = true;
        clearTimeout(timeout);
        resolve(`${line[1] ?? ''}/metrics`);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('error', (e) => {
      fail(`could not be started (${e.message})`);
    });
    child.once('exit', (code, signal) => {
      writer.end();
      const how = signal ?? `code ${String(code)}`;
      if (!started) {
        fail(`exited (${how}) before it started`);
        return;
      }
      // Ctrl-C reaches the operator too, as often as not before the sandbox has begun to stop.
      setTimeout(() => {
        if (!stopping())
          log.progress(`the operator exited (${how}); VMs are not provisioned until the sandbox restarts`);
      }, EXPECTED_STOP_GRACE_MS).unref();
    });
  });
}
