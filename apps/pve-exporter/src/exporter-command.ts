import { once } from 'node:events';

import { USAGE, parseCliOptions } from './cli-options.js';
import { exitCodeOf } from './error-mapping.js';
import { loadExporterConfig } from './exporter-config.js';
import { ExporterError } from './exporter-error.js';
import { startPveExporter } from './exporter-server.js';

/** What the command talks to: its output streams, environment and the signals that stop it. */
export interface CommandIo {
  env: Readonly<Record<string, string | undefined>>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Resolves when the process is asked to stop (SIGINT, SIGTERM). */
  stopRequested: Promise<unknown>;
}

/** `pve-exporter [flags]`: serves until asked to stop; returns the exit code (0, 1 failure, 2 usage). */
export async function runExporterCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  try {
    const options = parseCliOptions(argv);
    if (options.help) {
      io.stdout(USAGE);
      return 0;
    }
    const config = await loadExporterConfig({ file: options.configFile, env: io.env });
    const exporter = await startPveExporter({
      config,
      listen: options.listen,
      defaultTimeoutMs: options.timeoutMs,
      log: (line) => {
        io.stderr(`${line}\n`);
      },
    });
    const modules = [...config.modules.keys()].join(', ');
    io.stderr(`pve-exporter serving ${exporter.url}/pve (modules ${modules} from ${config.source})\n`);
    await io.stopRequested;
    await exporter.close();
    return 0;
  } catch (e: unknown) {
    const code = exitCodeOf(e);
    const usage = e instanceof ExporterError && e.code === 'USAGE' ? USAGE : '';
    io.stderr(`pve-exporter: ${e instanceof Error ? e.message : String(e)}\n${usage}`);
    return code;
  }
}

/** Resolves on the first SIGINT or SIGTERM. */
export function stopSignal(): Promise<unknown> {
  return Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
}
