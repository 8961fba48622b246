import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { parseListenAddress, type ListenAddress } from './listen-address.js';

/** Bad flags: the CLI prints the message with the usage and exits 2. */
export class UsageError extends Error {}

export interface SandboxCliOptions {
  readonly listen: ListenAddress;
  readonly pveListen: ListenAddress;
  readonly kubeListen: ListenAddress;
  readonly exporterListen: ListenAddress;
  readonly operatorMetricsListen: ListenAddress;
  /** Absolute. */
  readonly dataDir: string;
  readonly reset: boolean;
}

const DEFAULT_PORT = 8080;
const LOOPBACK = '127.0.0.1';
const MAX_PORT = 65_535;

/**
 * Every listener's place after the `--port` base, in this order: the control plane on N, pve-sim on
 * N+1, … The usage, the READMEs and the summary say the same.
 */
const PORT_OFFSETS = {
  listen: 0,
  pveListen: 1,
  kubeListen: 2,
  exporterListen: 3,
  operatorMetricsListen: 4,
} as const;
const HIGHEST_OFFSET = Math.max(...Object.values(PORT_OFFSETS));

export const USAGE = `usage: npm start -- [--port N | --listen HOST:PORT] [--data-dir DIR] [--reset]
                    [--pve-listen HOST:PORT] [--kube-listen HOST:PORT]
                    [--exporter-listen HOST:PORT] [--operator-metrics-listen HOST:PORT]

  --port N                 the base port (default 8080), on 127.0.0.1: the control plane (API and dashboard)
                           on N, pve-sim on N+1, kube-sim on N+2, the pve-exporter on N+3 and the operator's
                           metrics on N+4; 0 picks a free port for each
  --listen HOST:PORT       the control plane on another address, instead of --port (the others stay on
                           8081..8084)
  --data-dir DIR           where the sandbox is kept between starts (default ./.data/sandbox): a second start
                           reuses it instead of seeding again
  --reset                  empty the data folder first and seed afresh
  --pve-listen HOST:PORT   the Proxmox VE simulator (default N+1)
  --kube-listen HOST:PORT  the Kubernetes API simulator standing in for the provider's agent cluster (default N+2)
  --exporter-listen HOST:PORT          the agent's pve-exporter (default N+3)
  --operator-metrics-listen HOST:PORT  the proxmox-operator's /metrics and /healthz (default N+4)
  --help                   this text`;

/** The flags, checked once; `help` when --help was given. */
export function parseSandboxOptions(argv: readonly string[]): SandboxCliOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string' },
        listen: { type: 'string' },
        'pve-listen': { type: 'string' },
        'kube-listen': { type: 'string' },
        'exporter-listen': { type: 'string' },
        'operator-metrics-listen': { type: 'string' },
        'data-dir': { type: 'string', default: './.data/sandbox' },
        reset: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e: unknown) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  if (values.help) return 'help';
  if (values['data-dir'] === '') throw new UsageError('--data-dir must name a folder');
  if (values.port !== undefined && values.listen !== undefined)
    throw new UsageError('give --port or --listen, not both');
  const base = portFlag(values.port);
  const at = (flag: string, text: string | undefined, offset: number): ListenAddress =>
    text === undefined ? { host: LOOPBACK, port: base === 0 ? 0 : base + offset } : listenFlag(flag, text);
  return {
    listen: at('--listen', values.listen, PORT_OFFSETS.listen),
    pveListen: at('--pve-listen', values['pve-listen'], PORT_OFFSETS.pveListen),
    kubeListen: at('--kube-listen', values['kube-listen'], PORT_OFFSETS.kubeListen),
    exporterListen: at('--exporter-listen', values['exporter-listen'], PORT_OFFSETS.exporterListen),
    operatorMetricsListen: at(
      '--operator-metrics-listen',
      values['operator-metrics-listen'],
      PORT_OFFSETS.operatorMetricsListen,
    ),
    dataDir: resolve(values['data-dir']),
    reset: values.reset,
  };
}

function portFlag(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PORT;
  if (!/^\d{1,5}$/.test(text) || Number(text) > MAX_PORT - HIGHEST_OFFSET)
    throw new UsageError(
      `--port must be a port number from 0 to ${String(MAX_PORT - HIGHEST_OFFSET)} (it and the ${String(HIGHEST_OFFSET)} after it are used), got ${text}`,
    );
  return Number(text);
}

function listenFlag(flag: string, text: string): ListenAddress {
  const address = parseListenAddress(text);
  if (address === undefined) throw new UsageError(`${flag} must be HOST:PORT, got ${text}`);
  return address;
}
