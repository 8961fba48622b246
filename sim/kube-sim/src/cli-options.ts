import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { TokenAuthenticator, type StaticToken } from './auth/index.js';
import type { KubeSimOptions } from './kube-sim.js';

export const USAGE = `Usage: npm run kube-sim -- [options]

  --listen HOST:PORT        address to serve on (default 127.0.0.1:6443; port 0 picks one)
  --kubeconfig FILE         write an admin kubeconfig there (default ./kubeconfig.yaml)
  --http                    plain HTTP instead of HTTPS with a generated CA
  --state FILE              keep all objects in FILE across restarts
  --token TOKEN=USER[:GROUP,GROUP]
                            a bearer token for USER in those groups (repeatable)
  --token-file FILE         bearer tokens in kube's CSV format: token,user,uid,"group1,group2"
  --watch-window N          events kept for watches resuming from a resourceVersion (default 10000)
  --help                    this text
`;

export class UsageError extends Error {}

export interface CliOptions extends KubeSimOptions {
  kubeconfigPath: string;
}

/** Parses the command line once; every value is checked here, not later. */
export function parseCliOptions(argv: readonly string[]): CliOptions | 'help' {
  const { values } = parseFlags(argv);
  if (values.help) return 'help';
  const tokens: StaticToken[] = (values.token ?? []).map(parseToken);
  if (values['token-file'] !== undefined) tokens.push(...readTokenFile(values['token-file']));
  return {
    listen: values.listen ?? '127.0.0.1:6443',
    kubeconfigPath: values.kubeconfig ?? './kubeconfig.yaml',
    http: values.http === true,
    tokens,
    ...(values.state !== undefined ? { statePath: values.state } : {}),
    watchWindow: int('--watch-window', values['watch-window'] ?? '10000', 0, 10_000_000),
  };
}

function parseFlags(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        listen: { type: 'string' },
        kubeconfig: { type: 'string' },
        http: { type: 'boolean' },
        state: { type: 'string' },
        token: { type: 'string', multiple: true },
        'token-file': { type: 'string' },
        'watch-window': { type: 'string' },
        help: { type: 'boolean' },
      },
    });
  } catch (e: unknown) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}

function int(flag: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${flag} wants a whole number from ${min} to ${max}, got '${value}'`);
  }
  return Number(value);
}

function parseToken(value: string): StaticToken {
  const m = /^([^=\s]+)=([^:\s]+)(?::(\S*))?$/.exec(value);
  if (!m) throw new UsageError(`--token wants TOKEN=USER[:GROUP,GROUP], got '${value}'`);
  const groups = (m[3] ?? '').split(',').filter((g) => g !== '');
  return { token: m[1] ?? '', username: m[2] ?? '', ...(groups.length ? { groups } : {}) };
}

function readTokenFile(path: string): StaticToken[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e: unknown) {
    throw new UsageError(`--token-file: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    return TokenAuthenticator.parseTokenFile(text);
  } catch (e: unknown) {
    throw new UsageError(`--token-file ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
