import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

import type { DatabaseLocation } from './db/database.js';
import { trustedProxyListProblem } from './http/client-ip.js';
import { newPasswordProblem } from './modules/auth/index.js';

/** Thrown for bad flags or environment; main prints it with the usage and exits 2. */
export class UsageError extends Error {}

export interface ParsedOptions {
  readonly listen: { readonly host: string; readonly port: number };
  readonly database: DatabaseLocation;
  readonly keyFile: string;
  readonly secretKeyFromEnv: string | undefined;
  readonly admin: { readonly email: string; readonly password: string } | undefined;
  /** The proxies whose X-Forwarded-* headers are believed; empty: none. */
  readonly trustedProxies: readonly string[];
  readonly logLevel: string;
  readonly installScriptUrl: string | undefined;
  readonly peeringApiServerUrl: string | undefined;
  readonly preflightIntervalSeconds: number | undefined;
  readonly metricsSilenceSeconds: number | undefined;
  /** The built dashboard to serve from `/`. */
  readonly dashboardDir: string | undefined;
  /** The version pins to publish; read and checked by startControlPlane. */
  readonly platformVersionsFile: string | undefined;
  /** Development only: private addresses where public ones are required. */
  readonly allowPrivateDestinations: boolean;
  /** The bearer token is read from its file by main, at start. */
  readonly metricsRemoteWrite:
    { readonly url: string; readonly bearerTokenFile: string | undefined } | undefined;
  /** The account seed is read from its file by main, at start. */
  readonly fleet:
    | {
        readonly natsUrl: string;
        readonly accountSeedFile: string;
        readonly agentNatsUrls: readonly string[] | undefined;
      }
    | undefined;
}

export const USAGE = `usage: npm run control-plane -- [--listen HOST:PORT] [--data-dir DIR] [--trust-proxy PROXIES]

  --listen HOST:PORT  address to serve the API on (default 127.0.0.1:8080)
  --data-dir DIR      embedded database and key file folder (default ./.data)
  --trust-proxy PROXIES  the load balancers in front, comma-separated addresses or CIDR prefixes (or
                      loopback, linklocal, uniquelocal): X-Forwarded-For and X-Forwarded-Proto are read
                      from them only, the client being the right-most address that is not one of them
  --dashboard-dir DIR serve the built dashboard (apps/dashboard/dist) from /
  --platform-versions-file FILE  the JSON document of version pins GET /v1/platform-versions serves
                      (checked at start; default: the built-in pins)
  --allow-private-destinations  development only: take private, loopback and documentation addresses
                      where public ones are required (kubeconfig servers the control plane dials,
                      agents' public IPs), as a sandbox on one machine needs

environment:
  DATABASE_URL        PostgreSQL server to use instead of the embedded database
  NR_SECRET_KEY       32-byte key (base64 or hex) sealing secrets at rest; default: DIR/secret.key, created on first start
  NR_TRUST_PROXY      the same list as --trust-proxy (the flag wins when both are given)
  NR_ALLOW_PRIVATE_DESTINATIONS  true: the same as --allow-private-destinations
  NR_PLATFORM_VERSIONS_FILE  the same as --platform-versions-file (the flag wins when both are given)
  NR_ADMIN_EMAIL, NR_ADMIN_PASSWORD   platform staff account, created on start
  NR_PEERING_API_SERVER_URL  https URL agent clusters peer with (written into their peering kubeconfig)
  NR_INSTALL_SCRIPT_URL      https URL of the agent installer in install commands (default https://get.nrings.io)
  NR_PREFLIGHT_INTERVAL_SECONDS  how often every plan's preflight is re-evaluated (default 60; 0: only after changes)
  NR_METRICS_SILENCE_SECONDS     after how long without pve_up a platform and its nodes are offline (default 120)
  NR_METRICS_REMOTE_WRITE_URL    a Prometheus-compatible remote-write URL accepted series are forwarded to
  NR_METRICS_REMOTE_WRITE_BEARER_TOKEN_FILE  file holding the bearer token for that URL
  NR_NATS_URL         NATS server(s) of the fleet transport (nats://host:4222, comma-separated for a cluster)
  NR_NATS_ACCOUNT_SEED_FILE  file holding the fleet NATS account's seed (SA…); needed with NR_NATS_URL
  NR_FLEET_AGENT_NATS_URLS   comma-separated NATS URLs given to node agents (default NR_NATS_URL)
  LOG_LEVEL           pino level (default info)`;

const LOG_LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** Reads flags and environment once, at start; everything after works with validated values. */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): ParsedOptions {
  refuseBareTrustProxy(argv);
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        listen: { type: 'string', default: '127.0.0.1:8080' },
        'data-dir': { type: 'string', default: './.data' },
        'trust-proxy': { type: 'string' },
        'dashboard-dir': { type: 'string' },
        'platform-versions-file': { type: 'string' },
        'allow-private-destinations': { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e: unknown) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  const dataDir = resolve(values['data-dir']);
  const databaseUrl = env.DATABASE_URL;
  if (databaseUrl !== undefined && databaseUrl !== '' && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new UsageError('DATABASE_URL must be a postgres:// URL');
  }
  const email = env.NR_ADMIN_EMAIL;
  const password = env.NR_ADMIN_PASSWORD;
  if ((email === undefined) !== (password === undefined)) {
    throw new UsageError('NR_ADMIN_EMAIL and NR_ADMIN_PASSWORD go together');
  }
  if (password !== undefined && email !== undefined) {
    const weakness = newPasswordProblem(password, { email, organizationName: undefined });
    if (weakness !== undefined) throw new UsageError(`NR_ADMIN_PASSWORD ${weakness}`);
  }
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.has(logLevel))
    throw new UsageError(`LOG_LEVEL must be one of ${[...LOG_LEVELS].join(', ')}`);
  return {
    listen: parseListen(values.listen),
    database:
      databaseUrl !== undefined && databaseUrl !== ''
        ? { url: databaseUrl }
        : { dataDir: resolve(dataDir, 'pglite') },
    keyFile: resolve(dataDir, 'secret.key'),
    secretKeyFromEnv: env.NR_SECRET_KEY,
    admin: email !== undefined && password !== undefined ? { email, password } : undefined,
    trustedProxies: trustedProxiesOf(values['trust-proxy'] ?? env.NR_TRUST_PROXY),
    logLevel,
    installScriptUrl: httpsUrl(env.NR_INSTALL_SCRIPT_URL, 'NR_INSTALL_SCRIPT_URL'),
    peeringApiServerUrl: httpsUrl(env.NR_PEERING_API_SERVER_URL, 'NR_PEERING_API_SERVER_URL'),
    preflightIntervalSeconds: seconds(env.NR_PREFLIGHT_INTERVAL_SECONDS, 'NR_PREFLIGHT_INTERVAL_SECONDS'),
    metricsSilenceSeconds: positive(
      seconds(env.NR_METRICS_SILENCE_SECONDS, 'NR_METRICS_SILENCE_SECONDS'),
      'NR_METRICS_SILENCE_SECONDS',
    ),
    metricsRemoteWrite: remoteWriteOf(env),
    fleet: fleetOf(env),
    dashboardDir: values['dashboard-dir'] === undefined ? undefined : resolve(values['dashboard-dir']),
    platformVersionsFile: fileOf(values['platform-versions-file'] ?? env.NR_PLATFORM_VERSIONS_FILE),
    allowPrivateDestinations:
      values['allow-private-destinations'] ||
      flagOf(env.NR_ALLOW_PRIVATE_DESTINATIONS, 'NR_ALLOW_PRIVATE_DESTINATIONS'),
  };
}

function fileOf(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : resolve(value);
}

function flagOf(value: string | undefined, name: string): boolean {
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new UsageError(`${name} must be true or false`);
}

const TRUST_PROXY_HELP =
  'give the addresses or CIDR prefixes of the load balancers in front, comma-separated (like ' +
  '--trust-proxy 10.0.0.0/8 or NR_TRUST_PROXY=192.0.2.10,192.0.2.11)';

/**
 * `--trust-proxy` was once a switch that believed every X-Forwarded-For: said that way (alone, or as
 * true/false, or as a hop count, which cannot tell a proxy from a client that connects directly) it is
 * refused rather than read as anything.
 */
function refuseBareTrustProxy(argv: readonly string[]): void {
  const at = argv.findIndex((a) => a === '--trust-proxy' || a.startsWith('--trust-proxy='));
  if (at < 0) return;
  const arg = argv[at] ?? '';
  const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[at + 1];
  if (value === undefined || value.startsWith('--') || /^(true|false|yes|no|on|off|\d+)$/i.test(value))
    throw new UsageError(
      `--trust-proxy no longer trusts every client's X-Forwarded-For: ${TRUST_PROXY_HELP}`,
    );
}

function trustedProxiesOf(value: string | undefined): readonly string[] {
  if (value === undefined || value.trim() === '') return [];
  const entries = value.split(',').map((e) => e.trim());
  if (entries.length === 1 && /^(true|false|yes|no|on|off|\d+)$/i.test(entries[0] ?? ''))
    throw new UsageError(
      `NR_TRUST_PROXY no longer trusts every client's X-Forwarded-For: ${TRUST_PROXY_HELP}`,
    );
  const problem = trustedProxyListProblem(entries);
  if (problem !== undefined)
    throw new UsageError(`--trust-proxy / NR_TRUST_PROXY: ${problem}; ${TRUST_PROXY_HELP}`);
  return entries;
}

/** A whole number of seconds, at most a day. */
function seconds(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 86_400)
    throw new UsageError(`${name} must be a whole number of seconds up to 86400`);
  return n;
}

function remoteWriteOf(env: NodeJS.ProcessEnv): ParsedOptions['metricsRemoteWrite'] {
  const url = env.NR_METRICS_REMOTE_WRITE_URL;
  const tokenFile = env.NR_METRICS_REMOTE_WRITE_BEARER_TOKEN_FILE;
  if (url === undefined || url === '') {
    if (tokenFile !== undefined && tokenFile !== '')
      throw new UsageError('NR_METRICS_REMOTE_WRITE_BEARER_TOKEN_FILE needs NR_METRICS_REMOTE_WRITE_URL');
    return undefined;
  }
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new UsageError('NR_METRICS_REMOTE_WRITE_URL must be an http:// or https:// URL');
  return {
    url,
    bearerTokenFile: tokenFile === '' || tokenFile === undefined ? undefined : resolve(tokenFile),
  };
}

const NATS_URL = /^(nats|tls):\/\/[^\s,]+$/;

function natsUrls(value: string, name: string): string[] {
  const urls = value.split(',').map((u) => u.trim());
  if (!urls.every((u) => NATS_URL.test(u) && URL.canParse(u)))
    throw new UsageError(`${name} must be nats:// or tls:// URLs, comma-separated`);
  return urls;
}

function fleetOf(env: NodeJS.ProcessEnv): ParsedOptions['fleet'] {
  const url = env.NR_NATS_URL;
  const seedFile = env.NR_NATS_ACCOUNT_SEED_FILE;
  const agentUrls = env.NR_FLEET_AGENT_NATS_URLS;
  if (url === undefined || url === '') {
    if ((seedFile !== undefined && seedFile !== '') || (agentUrls !== undefined && agentUrls !== ''))
      throw new UsageError('NR_NATS_ACCOUNT_SEED_FILE and NR_FLEET_AGENT_NATS_URLS need NR_NATS_URL');
    return undefined;
  }
  if (seedFile === undefined || seedFile === '')
    throw new UsageError('NR_NATS_URL needs NR_NATS_ACCOUNT_SEED_FILE (the fleet account seed, SA…)');
  return {
    natsUrl: natsUrls(url, 'NR_NATS_URL').join(','),
    accountSeedFile: resolve(seedFile),
    agentNatsUrls:
      agentUrls === undefined || agentUrls === ''
        ? undefined
        : natsUrls(agentUrls, 'NR_FLEET_AGENT_NATS_URLS'),
  };
}

function positive(value: number | undefined, name: string): number | undefined {
  if (value === 0) throw new UsageError(`${name} must be at least 1`);
  return value;
}

function parseListen(text: string): { host: string; port: number } {
  const match = /^(\[[0-9a-fA-F:]+\]|[^:]+):(\d{1,5})$/.exec(text);
  const port = Number(match?.[2]);
  if (match?.[1] === undefined || port > 65535)
    throw new UsageError(`--listen must be HOST:PORT, got ${text}`);
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}

function httpsUrl(value: string | undefined, name: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!URL.canParse(value) || new URL(value).protocol !== 'https:')
    throw new UsageError(`${name} must be an https:// URL`);
  return value;
}
