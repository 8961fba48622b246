import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, test } from 'vitest';

import { AgentError } from './agent-error.js';
import { type AgentConfig, loadAgentConfig } from './config.js';
import { parseGoDuration } from './go-duration.js';

const REQUIRED = {
  PROXIMA_BACKEND_URL: 'https://api.example.com',
  PROXIMA_INSTALL_TOKEN: 'install-token-123',
};

async function load(argv: string[], env: Record<string, string> = {}): Promise<AgentConfig> {
  const config = await loadAgentConfig(argv, { ...REQUIRED, ...env });
  if (config === 'help') throw new Error('help');
  return config;
}

async function usageError(
  argv: string[],
  env: Record<string, string | undefined> = REQUIRED,
): Promise<string> {
  try {
    await loadAgentConfig(argv, env);
  } catch (e: unknown) {
    expect(e).toBeInstanceOf(AgentError);
    expect((e as AgentError).code).toBe('USAGE');
    return (e as AgentError).message;
  }
  throw new Error(`accepted ${argv.join(' ')}`);
}

describe('loadAgentConfig', () => {
  let hostRoot: string;
  beforeEach(async () => {
    hostRoot = await mkdtemp(join(tmpdir(), 'node-agent-config-'));
  });
  afterEach(async () => {
    await rm(hostRoot, { recursive: true, force: true });
  });

  test('defaults: a host agent, heartbeats only, 30 s, the standard paths', async () => {
    const config = await load([]);
    expect(config).toMatchObject({
      agentType: 'host',
      backendUrl: 'https://api.example.com',
      installToken: 'install-token-123',
      dataDir: '/var/lib/proxima-agent',
      hostRoot: undefined,
      k8sNodeMetrics: false,
      metricsIntervalMs: 30_000,
      natsUrls: undefined,
      logLevel: 'info',
      logDir: '/var/log/pods',
      healthListen: '127.0.0.1:9810',
    });
    expect(config.kubelet).toEqual({
      url: `https://${config.name}:10250`,
      tokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token',
      caFile: undefined,
      insecureSkipVerify: false,
    });
  });

  test('the DaemonSet environment', async () => {
    const config = await load([], {
      PROXIMA_AGENT_TYPE: 'k8s-node-monitor',
      PROXIMA_K8S_NODE_METRICS: 'true',
      PROXIMA_K8S_METRICS_INTERVAL: '1m30s',
      PROXIMA_K8S_NODE_NAME: 'worker-1',
      PROXIMA_KUBELET_URL: 'https://10.0.0.5:10250',
      PROXIMA_KUBELET_INSECURE_SKIP_VERIFY: 'true',
      PROXIMA_NATS_URL: 'nats://nats-a:4222, tls://nats-b:4222',
      PROXIMA_LOG_LEVEL: 'debug',
      PROXIMA_DATA_DIR: '/data',
      PROXIMA_HEALTH_LISTEN: ':9810',
    });
    expect(config).toMatchObject({
      agentType: 'k8s-node-monitor',
      k8sNodeMetrics: true,
      metricsIntervalMs: 90_000,
      name: 'worker-1',
      nodeName: 'worker-1',
      dataDir: '/data',
      natsUrls: ['nats://nats-a:4222', 'tls://nats-b:4222'],
      logLevel: 'debug',
      healthListen: ':9810',
      kubelet: { url: 'https://10.0.0.5:10250', insecureSkipVerify: true },
    });
  });

  test('flags win over the environment, and boolean flags may be bare', async () => {
    const config = await load(
      [
        '--agent-type',
        'k8s-node-monitor',
        '--node-name',
        'from-flag',
        '--k8s-node-metrics',
        '--metrics-interval',
        '60s',
        '--backend-url',
        'http://127.0.0.1:8080/',
        '--kubelet-ca-file',
        '/ca.pem',
        '--log-dir',
        '/logs',
      ],
      {
        PROXIMA_K8S_NODE_NAME: 'from-env',
        PROXIMA_K8S_METRICS_INTERVAL: '10s',
        PROXIMA_K8S_NODE_METRICS: 'false',
      },
    );
    expect(config).toMatchObject({
      name: 'from-flag',
      k8sNodeMetrics: true,
      metricsIntervalMs: 60_000,
      backendUrl: 'http://127.0.0.1:8080',
      logDir: '/logs',
      kubelet: { url: 'https://from-flag:10250', caFile: '/ca.pem', insecureSkipVerify: false },
    });
    expect((await load(['--kubelet-insecure-skip-verify', 'false'])).kubelet.insecureSkipVerify).toBe(false);
  });

  test('prefers the host root’s /etc/hostname (its FQDN) for the name; the node name stays the node label', async () => {
    await mkdir(join(hostRoot, 'etc'));
    await writeFile(join(hostRoot, 'etc/hostname'), 'worker-1.cluster.example.com\n');
    const config = await load([], {
      PROXIMA_AGENT_TYPE: 'k8s-node-monitor',
      PROXIMA_K8S_NODE_NAME: 'worker-1',
      PROXIMA_HOST_ROOT: hostRoot,
    });
    expect(config.name).toBe('worker-1.cluster.example.com');
    expect(config.hostname).toBe('worker-1.cluster.example.com');
    expect(config.nodeName).toBe('worker-1');
    expect(config.kubelet.url).toBe('https://worker-1:10250');
    expect(config.logDir).toBe(join(hostRoot, 'var/log/pods'));
    expect(config.warnings).toEqual([]);
  });

  test('falls back to the node name, with a warning, when the host’s hostname is unreadable or no name', async () => {
    const env = {
      PROXIMA_AGENT_TYPE: 'k8s-node-monitor',
      PROXIMA_K8S_NODE_NAME: 'worker-1',
      PROXIMA_HOST_ROOT: hostRoot,
    };
    const missing = await load([], env);
    expect(missing.name).toBe('worker-1');
    // The pod's own hostname would name the pod, not the host: the node's name stands in for it.
    expect(missing.hostname).toBe('worker-1');
    expect(missing.warnings.join()).toContain('etc/hostname');
    await mkdir(join(hostRoot, 'etc'));
    await writeFile(join(hostRoot, 'etc/hostname'), 'not a host name!\n');
    const invalid = await load([], env);
    expect(invalid.name).toBe('worker-1');
    expect(invalid.warnings.join()).toContain('holds no host name');
  });

  test('brackets a bare IPv6 host IP in the kubelet URL (https://$(HOST_IP):10250)', async () => {
    expect((await load(['--kubelet-url', 'https://fd00::5:10250'])).kubelet.url).toBe(
      'https://[fd00::5]:10250',
    );
  });

  test('--help', async () => {
    expect(await loadAgentConfig(['--help'], {})).toBe('help');
  });

  test.each([
    [[], {}, '--backend-url (or PROXIMA_BACKEND_URL) is required'],
    [[], { PROXIMA_BACKEND_URL: 'https://x' }, '--install-token (or PROXIMA_INSTALL_TOKEN) is required'],
    [
      ['--backend-url', 'http://api.example.com'],
      REQUIRED,
      '--backend-url: expected an https URL (http only for localhost)',
    ],
    [[], { ...REQUIRED, PROXIMA_BACKEND_URL: 'not a url' }, "PROXIMA_BACKEND_URL: not a URL: 'not a url'"],
    [[], { ...REQUIRED, PROXIMA_AGENT_TYPE: 'collector' }, 'collector is the cluster agent'],
    [
      [],
      { ...REQUIRED, PROXIMA_AGENT_TYPE: 'daemonset' },
      "PROXIMA_AGENT_TYPE: expected host or k8s-node-monitor, got 'daemonset'",
    ],
    [
      [],
      { ...REQUIRED, PROXIMA_K8S_METRICS_INTERVAL: '30' },
      'PROXIMA_K8S_METRICS_INTERVAL: expected a duration such as 30s',
    ],
    [
      ['--metrics-interval', '500ms'],
      REQUIRED,
      "--metrics-interval: expected between 1s and 1h, got '500ms'",
    ],
    [
      [],
      { ...REQUIRED, PROXIMA_K8S_NODE_METRICS: 'maybe' },
      "PROXIMA_K8S_NODE_METRICS: expected true or false, got 'maybe'",
    ],
    [
      [],
      { ...REQUIRED, PROXIMA_LOG_LEVEL: 'verbose' },
      'PROXIMA_LOG_LEVEL: expected one of debug, info, warn, error',
    ],
    [[], { ...REQUIRED, PROXIMA_K8S_NODE_NAME: 'bad name' }, 'PROXIMA_K8S_NODE_NAME: expected a host name'],
    [
      [],
      { ...REQUIRED, PROXIMA_NATS_URL: 'http://nats:4222' },
      'PROXIMA_NATS_URL: expected nats:// or tls:// URLs',
    ],
    [['--health-listen', '9810'], REQUIRED, '--health-listen: expected HOST:PORT'],
    [['--kubelet-url', 'ftp://node:10250'], REQUIRED, '--kubelet-url: expected an https URL'],
    [['--kubelet-ca-file', '/ca', '--kubelet-insecure-skip-verify'], REQUIRED, 'exclude each other'],
    [['--bogus'], REQUIRED, "Unknown option '--bogus'"],
    [['extra'], REQUIRED, "Unexpected argument 'extra'"],
    [['--data-dir', ''], REQUIRED, '--data-dir: expected a value'],
  ] as [string[], Record<string, string>, string][])('%j %j is refused: %s', async (argv, env, message) => {
    expect(await usageError(argv, env)).toContain(message);
  });

  test('a k8s-node-monitor agent without any node name is refused', async () => {
    expect(await usageError([], { ...REQUIRED, PROXIMA_AGENT_TYPE: 'k8s-node-monitor' })).toContain(
      'needs its node',
    );
  });
});

describe('parseGoDuration', () => {
  test.each([
    ['30s', 30_000],
    ['60s', 60_000],
    ['1m30s', 90_000],
    ['1.5h', 5_400_000],
    ['500ms', 500],
    ['2h45m', 9_900_000],
    ['0', 0],
  ])('%s is %d ms', (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });

  test.each(['', '30', '-1s', '1d', 's', '1m 30s', ' 30s', '1.s5'])('%j is no duration', (text) => {
    expect(parseGoDuration(text)).toBeUndefined();
  });
});
