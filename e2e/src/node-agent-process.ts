import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = new URL('../../', import.meta.url);
// tsx as a loader rather than its CLI, so that a signal reaches the agent itself and not a wrapper.
const TSX_LOADER = pathToFileURL(fileURLToPath(new URL('node_modules/tsx/dist/loader.mjs', ROOT))).href;
const AGENT_MAIN = fileURLToPath(new URL('apps/node-agent/src/main.ts', ROOT));
/** The agent stops as on SIGTERM when its parent goes away, however it goes (its stdin closes). */
const STOP_WITH_PARENT = `data:text/javascript,${encodeURIComponent(
  "process.stdin.on('end', () => process.kill(process.pid, 'SIGTERM')).on('error', () => {}).resume().unref();",
)}`;
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
