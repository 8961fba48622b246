import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';

import { runAgentCommand } from './agent-command.js';
import { type AgentHarness, INSTALL_TOKEN, agentHarness } from './agent-harness.test-support.js';
import { type FleetStream, eventually, startFleetStream } from './fleet-stream.test-support.js';

describe('the node agent with a control plane and NATS', () => {
  let fleet: FleetStream;
  let harness: AgentHarness;

  beforeAll(async () => {
    fleet = await startFleetStream();
  });
  afterAll(async () => {
    await fleet.close();
  });
  beforeEach(async () => {
    await fleet.reset();
    harness = await agentHarness(fleet);
  });
  afterEach(async () => {
    await harness.close();
  });

  test('a host agent enrolls, says it has no host collectors, and sends heartbeats; no secret is logged', async () => {
    const agent = await harness.start();
    const { publicKey } = await agent.enrolled;
    const heartbeat = await eventually(async () =>
      (await fleet.messages()).find((m) => m.message.kind === 'heartbeat'),
    );
    expect(heartbeat.publicKey).toBe(publicKey);
    expect(heartbeat.message).toMatchObject({
      kind: 'heartbeat',
      version: '0.1.0',
      agentType: 'host',
      name: 'worker-1',
      hostname: 'worker-1.example.com',
      intervalSeconds: 1,
      collectors: [],
    });
    expect(harness.lines.some((l) => l.msg.startsWith('host mode: this agent has no host collectors'))).toBe(
      true,
    );
    expect((await fetch(`${agent.healthUrl}/readyz`)).status).toBe(200);
    expect((await fetch(`${agent.healthUrl}/healthz`)).status).toBe(200);
    await agent.stop();
    expect(harness.lines.at(-1)?.msg).toBe('stopped');
    const state = JSON.parse(await readFile(join(harness.root, 'data/state.json'), 'utf8')) as {
      nkeySeed: string;
    };
    for (const secret of [INSTALL_TOKEN, state.nkeySeed])
      expect(harness.raw.join('\n')).not.toContain(secret);
  });

  test('keeps retrying a 409 while Ready, then runs once the name is free', async () => {
    const conflict = {
      status: 409,
      body: { code: 'ALREADY_EXISTS', message: 'the name worker-1 is held by agent a-1' },
    };
    harness.backend.scriptEnrollments([conflict, conflict, conflict]);
    const agent = await harness.start();
    await eventually(() =>
      harness.lines.filter((l) => l.serverMessage !== undefined).length >= 2 ? true : undefined,
    );
    const ready = await fetch(`${agent.healthUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', phase: 'enrolling' });
    await agent.enrolled;
    expect(harness.backend.enrollments).toHaveLength(4);
    const warnings = harness.lines.filter(
      (l) => l.level === 'warn' && String(l.hint).includes('release-identity'),
    );
    expect(warnings.map((w) => w.serverMessage)).toEqual(
      Array(3).fill('the name worker-1 is held by agent a-1'),
    );
    await eventually(async () => ((await fleet.messages()).length > 0 ? true : undefined));
  });

  test('an agent that adopts its identity asks for credentials with its key, and does not enroll', async () => {
    const first = await harness.start();
    const identity = await first.enrolled;
    await first.stop();
    await fleet.reset();
    const again = await harness.start();
    expect(await again.enrolled).toEqual(identity);
    await eventually(async () => ((await fleet.messages()).length > 0 ? true : undefined));
    expect(harness.backend.enrollments).toHaveLength(1);
    expect(harness.backend.credentialRequests).toEqual([identity.agentId]);
  });

  test('a refused install token stops the agent with exit code 1', async () => {
    const output: string[] = [];
    const code = await runAgentCommand([], {
      env: {
        PROXIMA_BACKEND_URL: harness.backend.url,
        PROXIMA_INSTALL_TOKEN: 'not-the-install-token',
        PROXIMA_DATA_DIR: join(harness.root, 'data'),
        PROXIMA_HEALTH_LISTEN: '127.0.0.1:0',
      },
      stdout: (text) => output.push(text),
      stderr: (text) => output.push(text),
      stopRequested: new Promise(() => undefined),
    });
    expect(code).toBe(1);
    expect(output.join('')).toContain('refused the install token (401)');
    expect(output.join('')).not.toContain('not-the-install-token');
  });

  test('bad flags exit 2; another agent’s directory exits 1 and is left as it was', async () => {
    const output: string[] = [];
    const io = {
      stdout: (text: string) => output.push(text),
      stderr: (text: string) => output.push(text),
      stopRequested: Promise.resolve(),
    };
    const env = {
      PROXIMA_BACKEND_URL: harness.backend.url,
      PROXIMA_INSTALL_TOKEN: INSTALL_TOKEN,
      PROXIMA_HEALTH_LISTEN: '127.0.0.1:0',
    };
    expect(await runAgentCommand(['--metrics-interval', 'soon'], { ...io, env })).toBe(2);
    expect(output.join('')).toContain('Usage: node-agent');
    const first = await harness.start({ agentType: 'host' });
    await first.enrolled;
    await first.stop();
    const before = await readFile(join(harness.root, 'data/state.json'));
    const code = await runAgentCommand([], {
      ...io,
      env: {
        ...env,
        PROXIMA_AGENT_TYPE: 'k8s-node-monitor',
        PROXIMA_K8S_NODE_NAME: 'worker-1',
        PROXIMA_DATA_DIR: join(harness.root, 'data'),
      },
    });
    expect(code).toBe(1);
    expect(output.join('')).toContain('holds the identity of another agent');
    expect(await readFile(join(harness.root, 'data/state.json'))).toEqual(before);
  });
});
