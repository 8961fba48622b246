import { runExporterCommand, stopSignal } from './exporter-command.js';

process.exitCode = await runExporterCommand(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stopRequested: stopSignal(),
});
