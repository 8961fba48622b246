import { spawn } from 'node:child_process';
import { constants } from 'node:os';

import type { CommandResult } from './host.js';

const KILL_GRACE_MS = 5000;

export interface RunOptions {
  /** Added to the environment of `nr` itself. */
  readonly env: Readonly<Record<string, string>>;
  readonly stdin: string | undefined;
  readonly timeoutMs: number;
}

/**
 * Runs a program and collects what it printed. It rejects only when the program cannot be started or
 * outlives `timeoutMs`; a non-zero exit is a result.
 */
export type ProcessRunner = (argv: readonly string[], options: RunOptions) => Promise<CommandResult>;

/** A ProcessRunner on `child_process.spawn`, without a shell: each argv element reaches the program as is. */
export const spawnProcess: ProcessRunner = (argv, { env, stdin, timeoutMs }) =>
  new Promise((resolve, reject) => {
    const [program, ...args] = argv;
    if (program === undefined || program === '') {
      reject(new Error('a command needs a program'));
      return;
    }
    const child = spawn(program, args, {
      env: { ...process.env, ...env },
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    let killer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      // SIGTERM first: sudo passes it on to the program it runs, which SIGKILL would leave behind.
      child.kill('SIGTERM');
      killer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
      reject(new Error(`${program} did not finish in ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.on('error', (e: Error) => {
      clearTimeout(timer);
      reject(new Error(`could not run ${program}: ${e.message}`, { cause: e }));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(killer);
      resolve({
        // A program killed by a signal exits 128 + its number, as a shell reports it.
        exitCode: code ?? 128 + (signal === null ? 0 : constants.signals[signal]),
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      });
    });
    if (child.stdin !== null) {
      // A program that exits without reading all of its input closes the pipe; that is its business.
      child.stdin.on('error', () => undefined);
      child.stdin.end(stdin);
    }
  });
