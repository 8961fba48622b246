import { runAgentCommand, stopSignal } from './agent-command.js';

process.exitCode = await runAgentCommand(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stopRequested: stopSignal(),
});
