import { once } from 'node:events';

import { AgentError, exitCodeOf, messageOf } from './agent-error.js';
import { startNodeAgent } from './agent.js';
import { USAGE, loadAgentConfig } from './config.js';

/** What the command talks to: its output streams, environment and the signals that stop it. */
export interface CommandIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Resolves when the process is asked to stop (SIGINT, SIGTERM). */
  readonly stopRequested: Promise<unknown>;
}

/** `node-agent [flags]`: runs until asked to stop; returns the exit code (0, 1 failure, 2 usage). */
export async function runAgentCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  try {
    const config = await loadAgentConfig(argv, io.env);
    if (config === 'help') {
      io.stdout(USAGE);
      return 0;
    }
    const agent = await startNodeAgent(config, {
      writeLog: (line) => {
        io.stdout(`${line}\n`);
      },
    });
    const outcome = await Promise.race([io.stopRequested.then(() => undefined), agent.failed]);
    await agent.stop();
    return outcome === undefined ? 0 : exitCodeOf(outcome);
  } catch (e: unknown) {
    const usage = e instanceof AgentError && e.code === 'USAGE' ? `\n${USAGE}` : '\n';
    io.stderr(`node-agent: ${messageOf(e)}${usage}`);
    return exitCodeOf(e);
  }
}

/** Resolves on the first SIGINT or SIGTERM. */
export function stopSignal(): Promise<unknown> {
  return Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
}
