import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { HostSignals } from '@noderings/fleet';
import { captureLogs } from '@noderings/log/log-capture';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

import { AgentError } from '../agent-error.js';
import { type FakeBackend, startFakeBackend } from '../fake-backend.test-support.js';
import { type AgentSelf, type EnrollTiming, enrollUntilDone, loadIdentity } from './agent-identity.js';
import { publicKeyOf } from './agent-state.js';

const FAST: EnrollTiming = { conflict: { baseMs: 10, maxMs: 20 }, retry: { baseMs: 10, maxMs: 20 } };
const HOST_A = { machineId: 'a'.repeat(32), systemUuid: '11111111-2222-3333-4444-555555555555' };
const HOST_B = { machineId: 'b'.repeat(32) };

describe('the identity in the data directory', () => {
  let root: string;
  let backend: FakeBackend;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'node-agent-identity-'));
    backend = await startFakeBackend();
  });
  afterEach(async () => {
    await backend.close();
    await rm(root, { recursive: true, force: true });
  });

  async function enroll(self: AgentSelf, signal = new AbortController().signal) {
    const { logger: log } = captureLogs();
    const loaded = await loadIdentity(self, log, new Date());
    if (loaded.kind === 'enrolled') return loaded.state;
    const result = await enrollUntilDone(loaded.state, {
      backendUrl: backend.url,
      installToken: 'install-token-0123456789',
      version: '0.1.0',
      dataDir: self.dataDir,
      log,
      timing: FAST,
      signal,
      now: () => new Date('2026-01-02T03:04:05Z'),
    });
    if (result === undefined) throw new Error('not enrolled');
    return result.state;
  }

  function agent(
    dataDir: string,
    agentType: AgentSelf['agentType'],
    hostSignals: HostSignals = HOST_A,
  ): AgentSelf {
    return { dataDir: join(root, dataDir), agentType, name: 'worker-1', hostSignals };
  }

  test('two agents on one node with separate data directories get separate identities', async () => {
    const host = await enroll(agent('host', 'host'));
    const daemonSet = await enroll(agent('node', 'k8s-node-monitor'));
    expect(host.agentId).not.toBe(daemonSet.agentId);
    expect(host.nkeySeed).not.toBe(daemonSet.nkeySeed);
    expect(backend.enrollments.map((e) => [e.agentType, e.name, e.hostSignals])).toEqual([
      ['host', 'worker-1', HOST_A],
      ['k8s-node-monitor', 'worker-1', HOST_A],
    ]);
    expect(backend.enrollments.map((e) => e.publicKey)).toEqual([
      publicKeyOf(host.nkeySeed),
      publicKeyOf(daemonSet.nkeySeed),
    ]);
  });

  test('an enrolled identity is adopted without enrolling again', async () => {
    const first = await enroll(agent('host', 'host'));
    const again = await enroll(agent('host', 'host'));
    expect(again).toEqual(first);
    expect(backend.enrollments).toHaveLength(1);
  });

  test.each([
    ['another agent type', 'k8s-node-monitor', HOST_A, ['a host agent', 'runs as k8s-node-monitor']],
    ['another host', 'host', HOST_B, [`machine-id is ${'a'.repeat(32)}`, `this host's is ${'b'.repeat(32)}`]],
  ] as const)(
    'a second agent of %s refuses the first one’s directory and leaves its file as it was',
    async (_case, type, signals, expected) => {
      const second = agent('shared', type, signals);
      const first = await enroll(agent('shared', 'host'));
      const file = join(root, 'shared', 'state.json');
      const before = await readFile(file);
      const { logger: log } = captureLogs();
      const error = await loadIdentity(second, log, new Date()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AgentError);
      expect((error as AgentError).code).toBe('IDENTITY_CONFLICT');
      const message = (error as AgentError).message;
      expect(message).toContain(first.agentId);
      expect(message).toContain("'worker-1'");
      expect(message).toContain('--data-dir');
      expect(message).toContain('nodeAgent.hostDataDir');
      expect(message).toContain('left untouched');
      for (const text of expected) expect(message).toContain(text);
      expect(await readFile(file)).toEqual(before);
      expect(await readdir(join(root, 'shared'))).toEqual(['state.json']);
      expect(backend.enrollments).toHaveLength(1);
    },
  );

  test('a host signal the agent cannot read now is no reason to refuse', async () => {
    const first = await enroll(agent('dir', 'host'));
    expect(await enroll(agent('dir', 'host', {}))).toEqual(first);
  });

  test('a crash before the final write re-enrolls with the same key and gets the same agent id', async () => {
    const self = agent('crash', 'host');
    // The control plane is down: the pending state (with its key) is on disk before the first attempt.
    backend.scriptEnrollments([{ status: 503, body: { message: 'unavailable' } }]);
    const aborted = new AbortController();
    const { logger: log } = captureLogs();
    const loaded = await loadIdentity(self, log, new Date());
    expect(loaded.kind).toBe('pending');
    // The process dies while it waits to retry.
    const watch = setInterval(() => {
      if (backend.enrollments.length > 0) aborted.abort();
    }, 5);
    await enrollUntilDone(loaded.state, {
      backendUrl: backend.url,
      installToken: 'install-token-0123456789',
      version: '0.1.0',
      dataDir: self.dataDir,
      log,
      timing: { ...FAST, retry: { baseMs: 60_000, maxMs: 60_000 } },
      signal: aborted.signal,
      now: () => new Date(),
    });
    clearInterval(watch);
    const pending = JSON.parse(await readFile(join(self.dataDir, 'state.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(pending.agentId).toBeUndefined();
    expect(backend.enrollments).toHaveLength(1);

    // The next start enrolls with the key of the pending state…
    const state = await enroll(self);
    expect(backend.enrollments.map((e) => e.publicKey)).toEqual([
      publicKeyOf(String(pending.nkeySeed)),
      publicKeyOf(String(pending.nkeySeed)),
    ]);
    // …and if it crashes after the server's answer but before its final write, the same key gets the same id.
    await writeFile(join(self.dataDir, 'state.json'), JSON.stringify(pending));
    const again = await enroll(self);
    expect(again.agentId).toBe(state.agentId);
    expect(again.nkeySeed).toBe(state.nkeySeed);
    expect(backend.enrollments).toHaveLength(3);
  });

  test('the state file is 0600 in a 0700 directory it created, written whole', async () => {
    const self = agent('modes/nested', 'host');
    const state = await enroll(self);
    expect((await stat(join(self.dataDir, 'state.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(self.dataDir)).mode & 0o777).toBe(0o700);
    expect(await readdir(self.dataDir)).toEqual(['state.json']);
    expect(JSON.parse(await readFile(join(self.dataDir, 'state.json'), 'utf8'))).toEqual({
      version: 1,
      agentType: 'host',
      name: 'worker-1',
      nkeySeed: state.nkeySeed,
      hostSignals: HOST_A,
      agentId: state.agentId,
      environmentId: 'env-1',
      enrolledAt: '2026-01-02T03:04:05.000Z',
    });
  });

  test('a corrupt state file is moved aside, with a warning, and the agent enrolls anew', async () => {
    const self = agent('corrupt', 'host');
    await enroll(self);
    await writeFile(join(self.dataDir, 'state.json'), '{"version":1,"agentType":"host",');
    const { logger: log, lines } = captureLogs();
    const loaded = await loadIdentity(self, log, new Date('2026-03-04T05:06:07.890Z'));
    expect(loaded.kind).toBe('pending');
    expect((await readdir(self.dataDir)).sort()).toEqual([
      'state.json',
      'state.json.invalid-20260304T050607Z',
    ]);
    expect(await readFile(join(self.dataDir, 'state.json.invalid-20260304T050607Z'), 'utf8')).toBe(
      '{"version":1,"agentType":"host",',
    );
    expect(lines.find((l) => l.level === 'warn')?.msg).toContain('moved it aside');
  });

  test('a state file of a newer agent is neither adopted nor touched', async () => {
    const self = agent('newer', 'host');
    await enroll(self);
    const file = join(self.dataDir, 'state.json');
    await writeFile(file, JSON.stringify({ version: 2, agentType: 'host' }));
    const error = await loadIdentity(self, captureLogs().logger, new Date()).catch((e: unknown) => e);
    expect((error as AgentError).code).toBe('STATE_UNUSABLE');
    expect(await readFile(file, 'utf8')).toBe(JSON.stringify({ version: 2, agentType: 'host' }));
  });

  test('a 409 is retried, logging the server’s message and the release-identity hint each time', async () => {
    backend.scriptEnrollments([
      { status: 409, body: { code: 'ALREADY_EXISTS', message: 'worker-1 is enrolled with another key' } },
      { status: 409, body: { code: 'ALREADY_EXISTS', message: 'worker-1 is enrolled with another key' } },
    ]);
    const { logger: log, lines } = captureLogs();
    const self = agent('conflict', 'k8s-node-monitor');
    const loaded = await loadIdentity(self, log, new Date());
    const result = await enrollUntilDone(loaded.state, {
      backendUrl: backend.url,
      installToken: 'install-token-0123456789',
      version: '0.1.0',
      dataDir: self.dataDir,
      log,
      timing: FAST,
      signal: new AbortController().signal,
      now: () => new Date(),
    });
    expect(result?.state.agentId).toBe('agent-1');
    const warnings = lines.filter((l) => l.level === 'warn');
    expect(warnings.map((w) => [w.attempt, w.serverMessage])).toEqual([
      [1, 'worker-1 is enrolled with another key'],
      [2, 'worker-1 is enrolled with another key'],
    ]);
    expect(String(warnings[0]?.hint)).toContain('/release-identity');
  });

  test('a refused install token stops enrolling with a clear error', async () => {
    const self = agent('refused', 'host');
    const { logger: log } = captureLogs();
    const loaded = await loadIdentity(self, log, new Date());
    const error = await enrollUntilDone(loaded.state, {
      backendUrl: backend.url,
      installToken: 'wrong-install-token',
      version: '0.1.0',
      dataDir: self.dataDir,
      log,
      timing: FAST,
      signal: new AbortController().signal,
      now: () => new Date(),
    }).catch((e: unknown) => e);
    expect((error as AgentError).code).toBe('ENROLLMENT_REJECTED');
    expect((error as AgentError).message).toContain('invalid, expired or revoked');
  });
});
