import { parseArgs } from 'node:util';

import { ExporterError } from './exporter-error.js';
import { parseListenAddress } from './listen-address.js';

export interface CliOptions {
  help: boolean;
  listen: string;
  configFile: string;
  timeoutMs: number;
}

export const USAGE = `Usage: pve-exporter [--listen HOST:PORT] [--config FILE] [--timeout SECONDS]

  --listen HOST:PORT   where to serve /pve and /metrics (default :9221, every interface; port 0 picks one)
  --config FILE        modules in prometheus-pve-exporter's pve.yml format (default /etc/prometheus/pve.yml);
                       ignored when PVE_USER is set: the module then comes from PVE_USER, PVE_TOKEN_NAME,
                       PVE_TOKEN_VALUE (or PVE_PASSWORD), PVE_VERIFY_SSL and PVE_MODULE
  --timeout SECONDS    a scrape's deadline when Prometheus sends no X-Prometheus-Scrape-Timeout-Seconds
                       (default 10)
  --help               show this text
`;

/** Parses and checks the flags once; any problem is an ExporterError with code USAGE. */
export function parseCliOptions(argv: readonly string[]): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        listen: { type: 'string', default: ':9221' },
        config: { type: 'string', default: '/etc/prometheus/pve.yml' },
        timeout: { type: 'string', default: '10' },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (e: unknown) {
    throw usage(e instanceof Error ? e.message : String(e));
  }
  try {
    parseListenAddress(values.listen);
  } catch (e: unknown) {
    throw usage(`--listen: ${e instanceof Error ? e.message : String(e)}`);
  }
  const seconds = Number(values.timeout);
  if (!/^\d+(\.\d+)?$/.test(values.timeout) || seconds <= 0) {
    throw usage(`--timeout: expected a positive number of seconds, got '${values.timeout}'`);
  }
  if (values.config === '') throw usage('--config: expected a file name');
  return { help: values.help, listen: values.listen, configFile: values.config, timeoutMs: seconds * 1000 };
}

function usage(message: string): ExporterError {
  return new ExporterError('USAGE', message);
}
