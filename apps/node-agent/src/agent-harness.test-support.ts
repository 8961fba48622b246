import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { LogRecord } from '@noderings/log/log-capture';

import { type AgentTiming, type NodeAgent, startNodeAgent } from './agent.js';
import type { AgentConfig } from './config.js';
import { type FakeBackend, startFakeBackend } from './fake-backend.test-support.js';
import type { FleetStream } from './fleet-stream.test-support.js';

export const INSTALL_TOKEN = 'install-token-0123456789';

const FAST: Partial<AgentTiming> = {
  enroll: { conflict: { baseMs: 50, maxMs: 100 }, retry: { baseMs: 50, maxMs: 100 } },
  flushMs: 2_000,
  logPollMs: 50,
};

/** Agents started against a fake control plane and a real FLEET stream, with their logs kept. */
export interface AgentHarness {
  readonly root: string;
  readonly backend: FakeBackend;
  readonly lines: LogRecord[];
  readonly raw: string[];
  config(overrides?: Partial<AgentConfig>): AgentConfig;
  start(overrides?: Partial<AgentConfig>): Promise<NodeAgent>;
  close(): Promise<void>;
}

export async function agentHarness(fleet: FleetStream): Promise<AgentHarness> {
  const backend = await startFakeBackend({
    accountSeed: fleet.nats.authority.accountSeed,
    natsUrl: fleet.nats.url,
    heartbeatIntervalSeconds: 1,
    installToken: INSTALL_TOKEN,
  });
  const root = await mkdtemp(join(tmpdir(), 'node-agent-it-'));
  const agents: NodeAgent[] = [];
  const lines: LogRecord[] = [];
  const raw: string[] = [];
  const config = (overrides: Partial<AgentConfig> = {}): AgentConfig => ({
    agentType: 'host',
    backendUrl: backend.url,
    installToken: INSTALL_TOKEN,
    name: 'worker-1',
    hostname: 'worker-1.example.com',
    nodeName: 'worker-1',
    dataDir: join(root, 'data'),
    hostRoot: root,
    k8sNodeMetrics: false,
    metricsIntervalMs: 1_000,
    kubelet: {
      url: 'https://127.0.0.1:1',
      tokenFile: join(root, 'token'),
      caFile: undefined,
      insecureSkipVerify: false,
    },
    natsUrls: undefined,
    logLevel: 'debug',
    logDir: join(root, 'pods'),
    healthListen: '127.0.0.1:0',
    warnings: [],
    ...overrides,
  });
  return {
    root,
    backend,
    lines,
    raw,
    config,
    start: async (overrides) => {
      const agent = await startNodeAgent(config(overrides), {
        timing: FAST,
        writeLog: (line) => {
          raw.push(line);
          lines.push(JSON.parse(line) as LogRecord);
        },
      });
      agents.push(agent);
      return agent;
    },
    close: async () => {
      for (const agent of agents) await agent.stop();
      await backend.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
