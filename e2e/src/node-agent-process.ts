import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';

import { repoPath, STOP_WITH_PARENT, TSX_LOADER } from './tsx-child.js';

const AGENT_MAIN = repoPath('apps/node-agent/src/main.ts');
const STOP_TIMEOUT_MS = 10_000;

/** `npm run node-agent -- …` as its own process, the way a DaemonSet pod runs it. */
export interface NodeAgentProcess {
  readonly pid: number;
  /** Everything it printed so far, one line each (its logs are JSON lines). */
  readonly lines: readonly string[];
  /** Resolves with its exit code once it has exited by itself or been stopped. */
  readonly exited: Promise<number | null>;
  /** Waits for a printed line containing `text`; rejects with its output if it exits or time runs out. */
  waitForLine(text: string, timeoutMs?: number): Promise<string>;
  /** SIGTERM (SIGKILL with `hard`), then SIGKILL if it has not stopped in time. */
  stop(hard?: boolean): Promise<number | null>;
}

export function startNodeAgentProcess(args: readonly string[]): NodeAgentProcess {
  const child: ChildProcessByStdio<Writable, Readable, Readable> = spawn(
    process.execPath,
    ['--import', TSX_LOADER, '--import', STOP_WITH_PARENT, AGENT_MAIN, ...args],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  child.stdin.on('error', () => undefined);
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      lines.push(...parts.filter((l) => l !== ''));
    });
  }
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      process.off('exit', killOnExit);
      resolve(code);
    });
    child.once('error', () => {
      process.off('exit', killOnExit);
      resolve(null);
    });
  });
  let done = false;
  void exited.then(() => {
    done = true;
  });
  return {
    pid: child.pid ?? -1,
    lines,
    exited,
    async waitForLine(text, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const line = lines.find((l) => l.includes(text));
        if (line !== undefined) return line;
        if (done || Date.now() > deadline)
          throw new Error(
            `the node agent ${done ? 'exited' : 'printed nothing like it in time'} before "${text}":\n${lines.join('\n')}`,
          );
        await delay(50);
      }
    },
    async stop(hard = false) {
      if (!done) {
        child.kill(hard ? 'SIGKILL' : 'SIGTERM');
        const stopped = await Promise.race([exited.then(() => true), delay(STOP_TIMEOUT_MS, false)]);
        if (!stopped) child.kill('SIGKILL');
      }
      return exited;
    },
  };
}
