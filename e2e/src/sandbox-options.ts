import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { parseListenAddress, type ListenAddress } from './listen-address.js';

/** Bad flags: the CLI prints the message with the usage and exits 2. */
export class UsageError extends Error {}

export interface SandboxCliOptions {
  readonly listen: ListenAddress;
  readonly pveListen: ListenAddress;
  readonly kubeListen: ListenAddress;
  /** Absolute. */
  readonly dataDir: string;
  readonly reset: boolean;
}

const DEFAULT_PORT = 8080;
const LOOPBACK = '127.0.0.1';
const MAX_PORT = 65_535;

export const USAGE = `usage: npm start -- [--port N | --listen HOST:PORT] [--data-dir DIR] [--reset]
                    [--pve-listen HOST:PORT] [--kube-listen HOST:PORT]

  --port N                 the control plane (API and dashboard) on 127.0.0.1:N (default 8080; 0 picks a free port, here and below)
  --listen HOST:PORT       the control plane on another address than the loopback one, instead of --port
  --data-dir DIR           where the sandbox is kept between starts (default ./.data/sandbox): a second start
                           reuses it instead of seeding again
  --reset                  empty the data folder first and seed afresh
  --pve-listen HOST:PORT   the Proxmox VE simulator (default 127.0.0.1:8006)
  --kube-listen HOST:PORT  the Kubernetes API simulator standing in for the provider's agent cluster (default 127.0.0.1:6443)
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
        'pve-listen': { type: 'string', default: '127.0.0.1:8006' },
        'kube-listen': { type: 'string', default: '127.0.0.1:6443' },
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
  return {
    listen:
      values.listen === undefined
        ? { host: LOOPBACK, port: portFlag(values.port) }
        : listenFlag('--listen', values.listen),
    pveListen: listenFlag('--pve-listen', values['pve-listen']),
    kubeListen: listenFlag('--kube-listen', values['kube-listen']),
    dataDir: resolve(values['data-dir']),
    reset: values.reset,
  };
}

function portFlag(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PORT;
  if (!/^\d{1,5}$/.test(text) || Number(text) > MAX_PORT)
    throw new UsageError(`--port must be a port number from 0 to ${String(MAX_PORT)}, got ${text}`);
  return Number(text);
}

function listenFlag(flag: string, text: string): ListenAddress {
  const address = parseListenAddress(text);
  if (address === undefined) throw new UsageError(`${flag} must be HOST:PORT, got ${text}`);
  return address;
}
