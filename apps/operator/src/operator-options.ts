import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';

import { OperatorError } from './operator-error.js';

export interface OperatorOptions {
  /** Absent: in-cluster credentials. */
  kubeconfig?: string;
  watchNamespace: string;
  operatorNamespace: string;
  workers: number;
  nodeConcurrency: number;
  metricsListen: { host: string; port: number };
  leaderElection: boolean;
  identity: string;
}

export const USAGE = `Usage: operator --watch-namespace NS [options]

  --kubeconfig FILE            kubeconfig to use (default: in-cluster)
  --watch-namespace NS         namespace of the custom resources (required)
  --operator-namespace NS      namespace of the Proxmox credential Secrets and the Lease (default proxmox-system)
  --workers N                  reconciles at once per controller (default 4)
  --node-concurrency N         Proxmox API calls at once per node (default 4)
  --metrics-listen HOST:PORT   /metrics, /healthz, /readyz (default 127.0.0.1:8080; port 0 picks one)
  --leader-election            compete for a Lease before reconciling (default)
  --no-leader-election         reconcile at once
  --identity ID                leader election identity (default hostname plus a random suffix)
`;

/** Parses and validates the flags once; any problem is an OperatorError with code USAGE. */
export function parseOperatorOptions(argv: readonly string[]): OperatorOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        kubeconfig: { type: 'string' },
        'watch-namespace': { type: 'string' },
        'operator-namespace': { type: 'string', default: 'proxmox-system' },
        workers: { type: 'string', default: '4' },
        'node-concurrency': { type: 'string', default: '4' },
        'metrics-listen': { type: 'string', default: '127.0.0.1:8080' },
        'leader-election': { type: 'boolean' },
        'no-leader-election': { type: 'boolean' },
        identity: { type: 'string' },
      },
    }));
  } catch (e: unknown) {
    throw usage(e instanceof Error ? e.message : String(e));
  }
  const watchNamespace = values['watch-namespace'];
  if (watchNamespace === undefined || watchNamespace === '') throw usage('--watch-namespace is required');
  if (values['leader-election'] === true && values['no-leader-election'] === true) {
    throw usage('--leader-election and --no-leader-election exclude each other');
  }
  return {
    ...(values.kubeconfig === undefined ? {} : { kubeconfig: values.kubeconfig }),
    watchNamespace: namespace('--watch-namespace', watchNamespace),
    operatorNamespace: namespace('--operator-namespace', values['operator-namespace']),
    workers: positiveInteger('--workers', values.workers),
    nodeConcurrency: positiveInteger('--node-concurrency', values['node-concurrency']),
    metricsListen: hostPort(values['metrics-listen']),
    leaderElection: values['no-leader-election'] !== true,
    identity: values.identity ?? `${hostname()}-${randomUUID().slice(0, 8)}`,
  };
}

function usage(message: string): OperatorError {
  return new OperatorError('USAGE', message);
}

function namespace(flag: string, value: string): string {
  if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(value))
    throw usage(`${flag}: not a namespace name: '${value}'`);
  return value;
}

function positiveInteger(flag: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1)
    throw usage(`${flag}: not a positive integer: '${value}'`);
  return n;
}

function hostPort(value: string): { host: string; port: number } {
  const colon = value.lastIndexOf(':');
  const host = value.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
  const port = Number(value.slice(colon + 1));
  if (colon <= 0 || host === '' || !/^\d+$/.test(value.slice(colon + 1)) || port > 65_535) {
    throw usage(`--metrics-listen: expected HOST:PORT, got '${value}'`);
  }
  return { host, port };
}
