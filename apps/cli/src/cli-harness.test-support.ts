import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { onTestFinished } from 'vitest';

import { runCli } from './cli-command.js';
import type { CliIo } from './cli-io.js';

export interface NrRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface NrOptions {
  readonly env?: Record<string, string | undefined>;
  /** A terminal on both sides; the answers are given to the prompts in turn. */
  readonly tty?: { readonly answers: readonly string[] };
  /** Instead of the timer between polls. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Told of stderr as it is written, for a test that answers what a command prints. */
  readonly onStderr?: (text: string) => void;
}

/** A fresh home folder of the test's own, removed when the test ends; `~/.nr` is inside it. */
export async function tempHome(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'nr-cli-'));
  onTestFinished(() => rm(home, { recursive: true, force: true }));
  return home;
}

/** Runs `nr argv` in-process with `home` as the home folder, capturing both streams. */
export async function nr(home: string, argv: readonly string[], options: NrOptions = {}): Promise<NrRun> {
  let stdout = '';
  let stderr = '';
  const answers = [...(options.tty?.answers ?? [])];
  const io: CliIo = {
    env: options.env ?? {},
    homeDir: home,
    stdout: (text) => (stdout += text),
    stderr: (text) => {
      stderr += text;
      options.onStderr?.(text);
    },
    ...(options.sleep !== undefined && { sleep: options.sleep }),
    stderrIsTty: options.tty !== undefined,
    prompt:
      options.tty === undefined
        ? undefined
        : (question) => {
            stderr += question;
            return Promise.resolve(answers.shift() ?? '');
          },
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}
