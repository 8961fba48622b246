import { readFile } from 'node:fs/promises';
import { hostname as osHostname } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import type { AgentType } from '@noderings/fleet';

import { AgentError } from './agent-error.js';
import { parseGoDuration } from './go-duration.js';
import { parseListenAddress } from './listen-address.js';

/** The levels `--log-level` accepts. */
const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

/** The agent types this agent runs as; `collector` is the cluster agent's. */
const NODE_AGENT_TYPES = ['host', 'k8s-node-monitor'] as const satisfies readonly AgentType[];
export type NodeAgentType = (typeof NODE_AGENT_TYPES)[number];

const DEFAULT_DATA_DIR = '/var/lib/proxima-agent';
const DEFAULT_TOKEN_FILE = '/var/run/secrets/kubernetes.io/serviceaccount/token';
const DEFAULT_HEALTH_LISTEN = '127.0.0.1:9810';
const DEFAULT_METRICS_INTERVAL = '30s';
const KUBELET_PORT = 10250;
const MIN_INTERVAL_MS = 1_000;
const MAX_INTERVAL_MS = 3_600_000;

export interface KubeletConfig {
  readonly url: string;
  readonly tokenFile: string;
  readonly caFile: string | undefined;
  readonly insecureSkipVerify: boolean;
}

/** Everything the agent runs with, checked once. */
export interface AgentConfig {
  readonly agentType: NodeAgentType;
  /** Without a trailing slash; https, or http only for a loopback host. */
  readonly backendUrl: string;
  readonly installToken: string;
  /** The name the agent enrolls as: the host's `/etc/hostname` under the host root, else the node name. */
  readonly name: string;
  /**
   * The host's name for heartbeats (how the control plane links the agent to a cluster's node): the host
   * root's `/etc/hostname`, else for a DaemonSet agent the node's name, else this machine's.
   */
  readonly hostname: string;
  /** The Kubernetes node's name (`spec.nodeName`): the `node` label of the kubelet series. */
  readonly nodeName: string;
  readonly dataDir: string;
  readonly hostRoot: string | undefined;
  readonly k8sNodeMetrics: boolean;
  readonly metricsIntervalMs: number;
  readonly kubelet: KubeletConfig;
  /** Replaces the NATS servers the control plane hands out. */
  readonly natsUrls: readonly string[] | undefined;
  readonly logLevel: LogLevel;
  /** Where the pods' logs are (`<namespace>_<pod>_<uid>/<container>/<n>.log`). */
  readonly logDir: string;
  readonly healthListen: string;
  /** Things worth a warning at start that do not stop it. */
  readonly warnings: readonly string[];
}

export const USAGE = `Usage: node-agent [flags]   (each flag has a PROXIMA_* variable; a flag wins over it)

  --backend-url URL               PROXIMA_BACKEND_URL (required): the control plane, https (http only for
                                  localhost)
  --install-token TOKEN           PROXIMA_INSTALL_TOKEN (required): used only when enrolling
  --agent-type TYPE               PROXIMA_AGENT_TYPE: host (default) or k8s-node-monitor (the DaemonSet)
  --node-name NAME                PROXIMA_K8S_NODE_NAME: the node's name; the host's /etc/hostname under
                                  --host-root is preferred for enrolling when readable
  --data-dir DIR                  PROXIMA_DATA_DIR: where state.json lives (default ${DEFAULT_DATA_DIR});
                                  every agent on a host needs its own
  --k8s-node-metrics BOOL         PROXIMA_K8S_NODE_METRICS: collect kubelet metrics (default false)
  --metrics-interval DURATION     PROXIMA_K8S_METRICS_INTERVAL: 30s (default), 60s, 1m30s, …
  --host-root DIR                 PROXIMA_HOST_ROOT: where the host's files are mounted (e.g. /host)
  --kubelet-url URL               PROXIMA_KUBELET_URL (default https://<node name>:${KUBELET_PORT})
  --kubelet-token-file FILE       PROXIMA_KUBELET_TOKEN_FILE (default ${DEFAULT_TOKEN_FILE})
  --kubelet-ca-file FILE          PROXIMA_KUBELET_CA_FILE: the CA that signed the kubelet's certificate
  --kubelet-insecure-skip-verify  PROXIMA_KUBELET_INSECURE_SKIP_VERIFY: do not check the kubelet's certificate
  --nats-url URL[,URL…]           PROXIMA_NATS_URL: replaces the NATS servers the control plane hands out
  --log-dir DIR                   PROXIMA_LOG_DIR: pods' logs (default <host root>/var/log/pods)
  --health-listen HOST:PORT       PROXIMA_HEALTH_LISTEN: /healthz and /readyz (default ${DEFAULT_HEALTH_LISTEN})
  --log-level LEVEL               PROXIMA_LOG_LEVEL: debug, info (default), warn, error
  --help                          show this text
`;

type Env = Readonly<Record<string, string | undefined>>;

const FLAGS = {
  'backend-url': { type: 'string', env: 'PROXIMA_BACKEND_URL' },
  'install-token': { type: 'string', env: 'PROXIMA_INSTALL_TOKEN' },
  'agent-type': { type: 'string', env: 'PROXIMA_AGENT_TYPE' },
  'node-name': { type: 'string', env: 'PROXIMA_K8S_NODE_NAME' },
  'data-dir': { type: 'string', env: 'PROXIMA_DATA_DIR' },
  'k8s-node-metrics': { type: 'string', env: 'PROXIMA_K8S_NODE_METRICS' },
  'metrics-interval': { type: 'string', env: 'PROXIMA_K8S_METRICS_INTERVAL' },
  'host-root': { type: 'string', env: 'PROXIMA_HOST_ROOT' },
  'kubelet-url': { type: 'string', env: 'PROXIMA_KUBELET_URL' },
  'kubelet-token-file': { type: 'string', env: 'PROXIMA_KUBELET_TOKEN_FILE' },
  'kubelet-ca-file': { type: 'string', env: 'PROXIMA_KUBELET_CA_FILE' },
  'kubelet-insecure-skip-verify': { type: 'string', env: 'PROXIMA_KUBELET_INSECURE_SKIP_VERIFY' },
  'nats-url': { type: 'string', env: 'PROXIMA_NATS_URL' },
  'log-dir': { type: 'string', env: 'PROXIMA_LOG_DIR' },
  'health-listen': { type: 'string', env: 'PROXIMA_HEALTH_LISTEN' },
  'log-level': { type: 'string', env: 'PROXIMA_LOG_LEVEL' },
} as const;
type FlagName = keyof typeof FLAGS;

/** A flag that may be given bare (`--k8s-node-metrics`) as well as with a value. */
const BOOLEAN_FLAGS = ['k8s-node-metrics', 'kubelet-insecure-skip-verify'] as const;

/** A setting's value and where it came from, for messages. */
interface Setting {
  readonly value: string;
  readonly source: string;
}

/**
 * The agent's configuration from its flags and `PROXIMA_*` environment (a flag wins), or 'help'. Reads
 * the host's `/etc/hostname` under the host root. Every bad value is an AgentError USAGE naming the flag
 * or variable.
 */
export async function loadAgentConfig(argv: readonly string[], env: Env): Promise<AgentConfig | 'help'> {
  const flags = parseFlags(argv);
  if (flags === 'help') return 'help';
  const setting = (name: FlagName): Setting | undefined => {
    const flag = flags.get(name);
    if (flag !== undefined) return { value: flag, source: `--${name}` };
    const fromEnv = env[FLAGS[name].env];
    return fromEnv === undefined || fromEnv === '' ? undefined : { value: fromEnv, source: FLAGS[name].env };
  };
  const warnings: string[] = [];
  const agentType = readAgentType(setting('agent-type'));
  const backendUrl = readBackendUrl(required(setting('backend-url'), 'backend-url'));
  const installToken = required(setting('install-token'), 'install-token').value;
  const hostRoot = setting('host-root')?.value;
  const nodeName = readName(setting('node-name'));
  const hostHostname = hostRoot === undefined ? undefined : await readHostname(hostRoot, warnings);
  const name = hostHostname ?? nodeName ?? (agentType === 'host' ? localHostname() : undefined);
  if (name === undefined) {
    throw usage(
      `a k8s-node-monitor agent needs its node's name: set PROXIMA_K8S_NODE_NAME (the DaemonSet sets it from spec.nodeName) or mount the host's /etc/hostname under PROXIMA_HOST_ROOT`,
    );
  }
  const metricsIntervalMs = readInterval(
    setting('metrics-interval') ?? { value: DEFAULT_METRICS_INTERVAL, source: 'the default' },
  );
  const insecureSkipVerify = readBoolean(setting('kubelet-insecure-skip-verify')) ?? false;
  const caFile = setting('kubelet-ca-file')?.value;
  if (insecureSkipVerify && caFile !== undefined) {
    throw usage(
      '--kubelet-ca-file and --kubelet-insecure-skip-verify (or their PROXIMA_* variables) exclude each other',
    );
  }
  return {
    agentType,
    backendUrl,
    installToken,
    name,
    hostname: hostHostname ?? heartbeatHostname(agentType, name),
    nodeName: nodeName ?? name,
    dataDir: setting('data-dir')?.value ?? DEFAULT_DATA_DIR,
    hostRoot,
    k8sNodeMetrics: readBoolean(setting('k8s-node-metrics')) ?? false,
    metricsIntervalMs,
    kubelet: {
      url: readKubeletUrl(setting('kubelet-url'), nodeName ?? name),
      tokenFile: setting('kubelet-token-file')?.value ?? DEFAULT_TOKEN_FILE,
      caFile,
      insecureSkipVerify,
    },
    natsUrls: readNatsUrls(setting('nats-url')),
    logLevel: readLogLevel(setting('log-level')),
    logDir: setting('log-dir')?.value ?? join(hostRoot ?? '/', 'var/log/pods'),
    healthListen: readHealthListen(setting('health-listen')),
    warnings,
  };
}

function parseFlags(argv: readonly string[]): Map<FlagName, string> | 'help' {
  // Boolean flags may be bare; parseArgs wants a value for string options, so those get 'true'.
  const args = argv.flatMap((arg, i) => {
    const bare = BOOLEAN_FLAGS.find((f) => arg === `--${f}`);
    const next = argv[i + 1];
    const hasValue = next !== undefined && !next.startsWith('--');
    return bare !== undefined && !hasValue ? [`${arg}=true`] : [arg];
  });
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        ...Object.fromEntries(Object.keys(FLAGS).map((name) => [name, { type: 'string' as const }])),
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (e: unknown) {
    throw usage(e instanceof Error ? e.message : String(e));
  }
  if (values.help === true) return 'help';
  const flags = new Map<FlagName, string>();
  for (const name of Object.keys(FLAGS) as FlagName[]) {
    const value = values[name];
    if (typeof value !== 'string') continue;
    if (value === '') throw usage(`--${name}: expected a value`);
    flags.set(name, value);
  }
  return flags;
}

function required(setting: Setting | undefined, flag: FlagName): Setting {
  if (setting === undefined) throw usage(`--${flag} (or ${FLAGS[flag].env}) is required`);
  return setting;
}

function readAgentType(setting: Setting | undefined): NodeAgentType {
  if (setting === undefined) return 'host';
  const type = NODE_AGENT_TYPES.find((t) => t === setting.value);
  if (type !== undefined) return type;
  const hint = setting.value === 'collector' ? ' (collector is the cluster agent, not this one)' : '';
  throw usage(`${setting.source}: expected host or k8s-node-monitor, got '${setting.value}'${hint}`);
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function readBackendUrl(setting: Setting): string {
  let url: URL;
  try {
    url = new URL(setting.value);
  } catch {
    throw usage(`${setting.source}: not a URL: '${setting.value}'`);
  }
  const loopbackHttp = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) {
    throw usage(`${setting.source}: expected an https URL (http only for localhost), got '${setting.value}'`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '')
    throw usage(`${setting.source}: expected a base URL without query, fragment or credentials`);
  return url.toString().replace(/\/+$/, '');
}

const HOST_NAME = /^[a-zA-Z0-9]([a-zA-Z0-9._-]*[a-zA-Z0-9])?$/;
const MAX_NAME_CHARS = 253;

function isHostName(text: string): boolean {
  return text.length <= MAX_NAME_CHARS && HOST_NAME.test(text);
}

function readName(setting: Setting | undefined): string | undefined {
  if (setting === undefined) return undefined;
  if (!isHostName(setting.value))
    throw usage(
      `${setting.source}: expected a host name (letters, digits, dots, dashes), got '${setting.value}'`,
    );
  return setting.value;
}

/** The host's name from `<host root>/etc/hostname`: its first line, when it is a host name. */
async function readHostname(hostRoot: string, warnings: string[]): Promise<string | undefined> {
  const file = join(hostRoot, 'etc/hostname');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e: unknown) {
    warnings.push(`cannot read ${file} (${e instanceof Error ? e.message : String(e)}): using the node name`);
    return undefined;
  }
  const first = text.split('\n')[0]?.trim() ?? '';
  if (isHostName(first)) return first;
  warnings.push(`${file} holds no host name ('${first.slice(0, 80)}'): using the node name`);
  return undefined;
}

/** Without the host's own /etc/hostname: in a pod this machine's hostname is the pod's, so the node's name stands for its host. */
function heartbeatHostname(agentType: NodeAgentType, name: string): string {
  return agentType === 'k8s-node-monitor' ? name : (localHostname() ?? name);
}

function localHostname(): string | undefined {
  const name = osHostname();
  return isHostName(name) ? name : undefined;
}

function readInterval(setting: Setting): number {
  const ms = parseGoDuration(setting.value);
  if (ms === undefined)
    throw usage(`${setting.source}: expected a duration such as 30s, 60s or 1m30s, got '${setting.value}'`);
  if (ms < MIN_INTERVAL_MS || ms > MAX_INTERVAL_MS)
    throw usage(`${setting.source}: expected between 1s and 1h, got '${setting.value}'`);
  return ms;
}

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

function readBoolean(setting: Setting | undefined): boolean | undefined {
  if (setting === undefined) return undefined;
  const text = setting.value.toLowerCase();
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  throw usage(`${setting.source}: expected true or false, got '${setting.value}'`);
}

/** A URL, bracketing a bare IPv6 address (`https://$(HOST_IP):10250` with an IPv6 host IP). */
function readKubeletUrl(setting: Setting | undefined, nodeName: string): string {
  if (setting === undefined) return `https://${nodeName}:${KUBELET_PORT}`;
  const bareV6 = /^(https?):\/\/([0-9a-fA-F]*:[0-9a-fA-F:.]+):(\d{1,5})\/?$/.exec(setting.value);
  const text =
    bareV6 === null ? setting.value : `${bareV6[1] ?? ''}://[${bareV6[2] ?? ''}]:${bareV6[3] ?? ''}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usage(`${setting.source}: not a URL: '${setting.value}'`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw usage(`${setting.source}: expected an https URL, got '${setting.value}'`);
  return url.toString().replace(/\/+$/, '');
}

function readNatsUrls(setting: Setting | undefined): readonly string[] | undefined {
  if (setting === undefined) return undefined;
  const urls = setting.value
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  for (const url of urls) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || !['nats:', 'tls:'].includes(parsed.protocol))
      throw usage(`${setting.source}: expected nats:// or tls:// URLs separated by commas, got '${url}'`);
  }
  if (urls.length === 0) throw usage(`${setting.source}: expected at least one URL`);
  return urls;
}

function readLogLevel(setting: Setting | undefined): LogLevel {
  if (setting === undefined) return 'info';
  const level = LOG_LEVELS.find((l) => l === setting.value.toLowerCase());
  if (level === undefined)
    throw usage(`${setting.source}: expected one of ${LOG_LEVELS.join(', ')}, got '${setting.value}'`);
  return level;
}

function readHealthListen(setting: Setting | undefined): string {
  if (setting === undefined) return DEFAULT_HEALTH_LISTEN;
  if (parseListenAddress(setting.value) === undefined)
    throw usage(
      `${setting.source}: expected HOST:PORT (or :PORT for every interface), got '${setting.value}'`,
    );
  return setting.value;
}

function usage(message: string): AgentError {
  return new AgentError('USAGE', message);
}
