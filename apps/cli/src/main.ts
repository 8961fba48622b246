#!/usr/bin/env -S npx tsx
import { homedir } from 'node:os';

import { runCli } from './cli-command.js';
import { terminalPrompt } from './terminal-prompt.js';

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  homeDir: homedir(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTty: process.stderr.isTTY,
  prompt: process.stdin.isTTY ? terminalPrompt : undefined,
});
