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
}

export const USAGE = `usage: npm start -- [--listen HOST:PORT] [--pve-listen HOST:PORT] [--kube-listen HOST:PORT] [--data-dir DIR]

  --listen HOST:PORT       the control plane API (default 127.0.0.1:8080; port 0 picks a free one, here and below)
  --pve-listen HOST:PORT   the Proxmox VE simulator (default 127.0.0.1:8006)
  --kube-listen HOST:PORT  the Kubernetes API simulator standing in for the provider's agent cluster (default 127.0.0.1:6443)
  --data-dir DIR           the embedded database and kube-sim's admin kubeconfig (default ./.data/sandbox);
                           emptied at every start, so every run is a fresh seed
  --help                   this text`;

/** The flags, checked once; `help` when --help was given. */
export function parseSandboxOptions(argv: readonly string[]): SandboxCliOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        listen: { type: 'string', default: '127.0.0.1:8080' },
        'pve-listen': { type: 'string', default: '127.0.0.1:8006' },
        'kube-listen': { type: 'string', default: '127.0.0.1:6443' },
        'data-dir': { type: 'string', default: './.data/sandbox' },
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
  return {
    listen: listenFlag('--listen', values.listen),
    pveListen: listenFlag('--pve-listen', values['pve-listen']),
    kubeListen: listenFlag('--kube-listen', values['kube-listen']),
    dataDir: resolve(values['data-dir']),
  };
}

function listenFlag(flag: string, text: string): ListenAddress {
  const address = parseListenAddress(text);
  if (address === undefined) throw new UsageError(`${flag} must be HOST:PORT, got ${text}`);
  return address;
}
