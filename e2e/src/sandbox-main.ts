import { parseSandboxOptions, USAGE, UsageError } from './sandbox-options.js';
import { sandboxSummary } from './sandbox-summary.js';

async function main(argv: readonly string[]): Promise<number> {
  const options = parseSandboxOptions(argv);
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  process.stdout.write(`NodeRings sandbox: starting, on a fresh seed in ${options.dataDir}…\n`);
  // Loaded once the flags are good: a typo is answered at once, not after the control plane has loaded.
  const { startSandbox } = await import('./sandbox.js');
  const sandbox = await startSandbox({ ...options, database: { dataDir: options.dataDir } });
  process.stdout.write(sandboxSummary(sandbox, options.dataDir));
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  process.stdout.write('NodeRings sandbox: stopping\n');
  await sandbox.close();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof UsageError) {
      process.stderr.write(`sandbox: ${e.message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    process.stderr.write(`sandbox: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
