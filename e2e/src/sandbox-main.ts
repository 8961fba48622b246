import { ensureDashboardBuilt } from './dashboard-build.js';
import { parseSandboxOptions, USAGE, UsageError } from './sandbox-options.js';
import { sandboxSummary } from './sandbox-summary.js';

/**
 * The dashboard the control plane serves, built first when it is missing or older than its sources. A
 * failed build leaves the API running without it, and says why.
 */
async function builtDashboard(): Promise<string | undefined> {
  try {
    return await ensureDashboardBuilt((line) => process.stdout.write(`[sandbox] ${line}\n`));
  } catch (e: unknown) {
    process.stdout.write(
      `[sandbox] the dashboard is not served: ${e instanceof Error ? e.message : String(e)}\n`,
    );
    return undefined;
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const options = parseSandboxOptions(argv);
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  // A signal while starting stops the start at its next step; everything started is closed then.
  const abort = new AbortController();
  const stopRequested = new Promise<void>((resolve) => {
    const stop = () => {
      abort.abort();
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  const dashboardDir = await builtDashboard();
  process.stdout.write(`NodeRings sandbox: starting, with its data in ${options.dataDir}…\n`);
  // Loaded once the flags are good: a typo is answered at once, not after the control plane has loaded.
  const { startSandbox } = await import('./sandbox.js');
  let sandbox;
  try {
    sandbox = await startSandbox({
      ...options,
      ...(dashboardDir !== undefined && { dashboardDir }),
      signal: abort.signal,
    });
  } catch (e: unknown) {
    if (!abort.signal.aborted) throw e;
    process.stdout.write('NodeRings sandbox: stopped while starting\n');
    return 0;
  }
  process.stdout.write(sandboxSummary(sandbox, { dashboardServed: dashboardDir !== undefined }));
  await stopRequested;
  process.stdout.write('NodeRings sandbox: stopping\n');
  await sandbox.close();
  process.stdout.write('NodeRings sandbox: stopped\n');
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
