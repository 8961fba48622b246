import { parseArgs } from 'node:util';
import { isKubeletPath, type KubeletFault, type KubeletPath } from './fault-injector.js';
import { DEFAULT_USER, type KubeletSimToken, type KubeletSubresource } from './kubelet-auth.js';

export const USAGE = `Usage: npm run kubelet-sim -- [options]

  --listen HOST:PORT        address to serve HTTPS on (default 127.0.0.1:10250; port 0 picks one)
  --node-name NAME          the node's name (default sim-node-1)
  --pods N                  pods on the node (default 110, the kubelet's maxPods)
  --seed N                  another seed gives another (equally deterministic) node
  --token TOKEN[,USER[,SUBRESOURCE+SUBRESOURCE...]]
                            a bearer token (repeatable); USER defaults to ${DEFAULT_USER},
                            SUBRESOURCEs (stats, metrics, pods, proxy) to stats+metrics+pods
  --token-file FILE         tokens in the same form, one per line (a bare service-account token
                            file works); re-read when the file changes
  --recorded DIR            serve DIR/stats-summary.json, DIR/metrics-cadvisor.txt and DIR/pods.json
                            as they are instead of the simulated node's documents
  --ca-out FILE             write the serving certificate (with its CA) there, for clients to trust
  --fault PATH=STATUS|hang|delay:MS
                            make /stats/summary, /metrics/cadvisor or /pods answer STATUS, never
                            answer, or answer MS late (repeatable)
  --help                    this text

Without --token or --token-file a random token is made and printed.
`;

export class UsageError extends Error {}

export interface CliOptions {
  host: string;
  port: number;
  nodeName?: string;
  pods: number;
  seed?: number;
  tokens: KubeletSimToken[];
  tokenFile?: string;
  recordedDir?: string;
  caOut?: string;
  faults: [KubeletPath, KubeletFault][];
}

const MAX_PODS = 2000;
const SUBRESOURCES: readonly string[] = ['stats', 'metrics', 'pods', 'proxy'];

/** Parses the command line once; every value is checked here, not later. */
export function parseCliOptions(argv: readonly string[]): CliOptions | 'help' {
  const { values } = parseFlags(argv);
  if (values.help) return 'help';
  const nodeName = values['node-name'];
  if (nodeName !== undefined && !/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/.test(nodeName)) {
    throw new UsageError(
      `--node-name wants a DNS subdomain (lower case, digits, '-' and '.'), got '${nodeName}'`,
    );
  }
  return {
    ...parseListen(values.listen ?? '127.0.0.1:10250'),
    ...(nodeName !== undefined ? { nodeName } : {}),
    pods: int('--pods', values.pods ?? '110', 0, MAX_PODS),
    ...(values.seed !== undefined ? { seed: int('--seed', values.seed, 0, 2 ** 32 - 1) } : {}),
    tokens: (values.token ?? []).map((t) => parseToken(t, '--token')),
    ...(values['token-file'] !== undefined ? { tokenFile: values['token-file'] } : {}),
    ...(values.recorded !== undefined ? { recordedDir: values.recorded } : {}),
    ...(values['ca-out'] !== undefined ? { caOut: values['ca-out'] } : {}),
    faults: (values.fault ?? []).map(parseFault),
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
        'node-name': { type: 'string' },
        pods: { type: 'string' },
        seed: { type: 'string' },
        token: { type: 'string', multiple: true },
        'token-file': { type: 'string' },
        recorded: { type: 'string' },
        'ca-out': { type: 'string' },
        fault: { type: 'string', multiple: true },
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

function parseListen(listen: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d+)$/.exec(listen);
  if (!m) throw new UsageError(`--listen wants HOST:PORT, got '${listen}'`);
  const host = m[1] ?? m[2] ?? '';
  return { host: host === '' ? '127.0.0.1' : host, port: int('--listen port', m[3] ?? '', 0, 65_535) };
}

/** `TOKEN[,USER[,SUBRESOURCE+SUBRESOURCE…]]`, from the command line or a line of the token file. */
function parseToken(value: string, source: string): KubeletSimToken {
  const [token = '', user, subresources, ...rest] = value.trim().split(',');
  if (token === '' || /\s/.test(token) || rest.length > 0 || user === '') {
    throw new UsageError(`${source} wants TOKEN[,USER[,SUBRESOURCE+SUBRESOURCE...]], got '${value}'`);
  }
  const list = subresources?.split('+') ?? [];
  const unknown = list.filter((s) => !SUBRESOURCES.includes(s));
  if (subresources !== undefined && (list.length === 0 || unknown.length > 0)) {
    throw new UsageError(`${source}: subresources are ${SUBRESOURCES.join(', ')}, got '${subresources}'`);
  }
  return {
    token,
    ...(user !== undefined ? { user } : {}),
    ...(subresources !== undefined ? { subresources: list as KubeletSubresource[] } : {}),
  };
}

/** The tokens of a token file: one per line, blank lines and `#` comments skipped. */
export function parseTokenFile(text: string, path: string): KubeletSimToken[] {
  return text
    .split('\n')
    .map((line, i) => ({ line: line.trim(), n: i + 1 }))
    .filter(({ line }) => line !== '' && !line.startsWith('#'))
    .map(({ line, n }) => parseToken(line, `${path}:${n}`));
}

function parseFault(value: string): [KubeletPath, KubeletFault] {
  const m = /^([^=]+)=(\d{3}|hang|delay:(\d+))$/.exec(value);
  const path = m?.[1] ?? '';
  if (!m || !isKubeletPath(path)) {
    throw new UsageError(
      `--fault wants PATH=STATUS|hang|delay:MS with PATH /stats/summary, /metrics/cadvisor or /pods, got '${value}'`,
    );
  }
  if (m[2] === 'hang') return [path, { hang: true }];
  if (m[3] !== undefined) return [path, { delayMs: Number(m[3]) }];
  const status = Number(m[2]);
  if (status < 100 || status > 599) throw new UsageError(`--fault: ${status} is not an HTTP status`);
  return [path, { status }];
}
