import { describe, expect, it } from 'vitest';

import { OperatorError } from './operator-error.js';
import { parseOperatorOptions } from './operator-options.js';

function usageError(argv: readonly string[]): OperatorError {
  try {
    parseOperatorOptions(argv);
  } catch (e: unknown) {
    if (e instanceof OperatorError) return e;
    throw e;
  }
  throw new Error(`parsed without error: ${argv.join(' ')}`);
}

describe('parseOperatorOptions', () => {
  it('applies the defaults when only the watch namespace is given', () => {
    const options = parseOperatorOptions(['--watch-namespace', 'agent-operator']);
    expect(options).toMatchObject({
      watchNamespace: 'agent-operator',
      operatorNamespace: 'proxmox-system',
      workers: 4,
      nodeConcurrency: 4,
      metricsListen: { host: '127.0.0.1', port: 8080 },
      leaderElection: true,
    });
    expect(options).not.toHaveProperty('kubeconfig');
    expect(options.identity).not.toBe('');
  });

  it('gives each start its own default identity', () => {
    const a = parseOperatorOptions(['--watch-namespace', 'ns']).identity;
    const b = parseOperatorOptions(['--watch-namespace', 'ns']).identity;
    expect(a).not.toBe(b);
  });

  it('reads every flag', () => {
    expect(
      parseOperatorOptions([
        '--kubeconfig',
        '/etc/kube/config.yaml',
        '--watch-namespace',
        'team-a',
        '--operator-namespace',
        'ops',
        '--workers',
        '8',
        '--node-concurrency',
        '2',
        '--metrics-listen',
        '0.0.0.0:9090',
        '--no-leader-election',
        '--identity',
        'operator-1',
      ]),
    ).toEqual({
      kubeconfig: '/etc/kube/config.yaml',
      watchNamespace: 'team-a',
      operatorNamespace: 'ops',
      workers: 8,
      nodeConcurrency: 2,
      metricsListen: { host: '0.0.0.0', port: 9090 },
      leaderElection: false,
      identity: 'operator-1',
    });
  });

  it('accepts --flag=value, an explicit --leader-election, port 0 and a bracketed IPv6 host', () => {
    expect(
      parseOperatorOptions(['--watch-namespace=ns', '--leader-election', '--metrics-listen', '[::1]:0']),
    ).toMatchObject({
      watchNamespace: 'ns',
      leaderElection: true,
      metricsListen: { host: '::1', port: 0 },
    });
  });

  const bad: [string, string[]][] = [
    ['no --watch-namespace', []],
    ['an empty --watch-namespace', ['--watch-namespace', '']],
    ['an unknown flag', ['--watch-namespace', 'ns', '--verbose']],
    ['a positional argument', ['--watch-namespace', 'ns', 'extra']],
    ['a flag without its value', ['--watch-namespace']],
    ['both leader election flags', ['--watch-namespace', 'ns', '--leader-election', '--no-leader-election']],
    ['an upper-case namespace', ['--watch-namespace', 'Team']],
    ['a namespace ending in a dash', ['--watch-namespace', 'ns', '--operator-namespace', 'ops-']],
    ['a namespace of 64 characters', ['--watch-namespace', 'a'.repeat(64)]],
    ['zero workers', ['--watch-namespace', 'ns', '--workers', '0']],
    ['fractional workers', ['--watch-namespace', 'ns', '--workers', '1.5']],
    ['negative node concurrency', ['--watch-namespace', 'ns', '--node-concurrency', '-1']],
    ['non-numeric node concurrency', ['--watch-namespace', 'ns', '--node-concurrency', 'four']],
    ['a listen address without a port', ['--watch-namespace', 'ns', '--metrics-listen', '127.0.0.1']],
    ['a listen address without a host', ['--watch-namespace', 'ns', '--metrics-listen', ':8080']],
    ['a port above 65535', ['--watch-namespace', 'ns', '--metrics-listen', '127.0.0.1:65536']],
    ['a non-numeric port', ['--watch-namespace', 'ns', '--metrics-listen', '127.0.0.1:http']],
  ];
  it.each(bad)('refuses %s with code USAGE', (_name, argv) => {
    const error = usageError(argv);
    expect(error.code).toBe('USAGE');
    expect(error.message).not.toBe('');
  });
});
