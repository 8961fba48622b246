import { randomBytes } from 'node:crypto';

import { FailedPreconditionError, UnavailableError } from '@noderings/domain';
import { describe, expect, it } from 'vitest';

import { SecretBox } from '../../crypto/secret-box.js';
import type { ConsoleSessionState, NewConsoleSession } from './vm-console.repository.js';
import { consoleSecretAssociatedData, VmConsoleService } from './vm-console.service.js';

const VM_ID = '8f14e45f-ceea-4e7a-9b1c-2a3b4c5d6e7f';
const SESSION_ID = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

/** Sessions as the dispatcher and status sync would leave them, step by step. */
function sessions(states: readonly Partial<ConsoleSessionState>[]) {
  const inserted: NewConsoleSession[] = [];
  const withdrawn: string[] = [];
  let reads = 0;
  return {
    inserted,
    withdrawn,
    insert: (session: NewConsoleSession) => {
      inserted.push(session);
      return Promise.resolve();
    },
    find: (id: string): Promise<ConsoleSessionState> => {
      const state = states[Math.min(reads, states.length - 1)] ?? {};
      reads++;
      return Promise.resolve({
        id,
        phase: '',
        message: '',
        dispatchError: '',
        ticketCiphertext: null,
        passwordCiphertext: null,
        expiresAt: null,
        finished: false,
        ...state,
      });
    },
    withdraw: (id: string) => {
      withdrawn.push(id);
      return Promise.resolve();
    },
  };
}

function service(store: ReturnType<typeof sessions>, secretBox: SecretBox, powerState = 'Running') {
  let changes = 0;
  const consoles = new VmConsoleService({
    vms: {
      find: () =>
        Promise.resolve({
          id: VM_ID,
          agentId: 'agent',
          desiredState: 'PRESENT',
          observedPowerState: powerState,
        } as never),
    },
    sessions: store,
    secretBox,
    newId: () => SESSION_ID,
    changed: () => {
      changes++;
    },
    options: { waitMs: 200, pollMs: 10 },
  });
  return { consoles, changes: () => changes };
}

describe('VmConsoleService', () => {
  const box = new SecretBox(randomBytes(32));

  it('waits for the operator’s answer and opens the sealed password for the caller', async () => {
    const expiresAt = new Date('2030-01-01T00:00:40Z');
    const store = sessions([
      {},
      { phase: 'Pending' },
      {
        phase: 'Ready',
        passwordCiphertext: box.seal('s3cret', consoleSecretAssociatedData(SESSION_ID, 'password')),
        expiresAt,
      },
    ]);
    const { consoles, changes } = service(store, box);
    const access = await consoles.open('org', VM_ID);
    expect(access).toMatchObject({ sessionId: SESSION_ID, password: 's3cret', expiresAt });
    expect(store.inserted).toEqual([
      expect.objectContaining({ id: SESSION_ID, vmId: VM_ID, objectName: `nr-${VM_ID}-vnc-1c2d3e4f` }),
    ]);
    expect(store.inserted[0]?.tokenHash).toHaveLength(32);
    expect(store.withdrawn).toEqual([]);
    expect(changes()).toBe(1);
  });

  it('gives up after the wait with UNAVAILABLE and withdraws the request', async () => {
    const store = sessions([{ phase: 'Pending' }]);
    const started = performance.now();
    await expect(service(store, box).consoles.open('org', VM_ID)).rejects.toBeInstanceOf(UnavailableError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(200);
    expect(store.withdrawn).toEqual([SESSION_ID]);
  });

  it('answers at once when the agent cannot be reached (UNAVAILABLE) or the operator refused (FAILED_PRECONDITION)', async () => {
    const unreachable = sessions([{ dispatchError: 'waiting for agent cluster: ECONNREFUSED' }]);
    await expect(service(unreachable, box).consoles.open('org', VM_ID)).rejects.toThrow(
      /cannot be reached: waiting for agent cluster: ECONNREFUSED/,
    );
    const refused = sessions([{ phase: 'Failed', message: 'VM is stopped' }]);
    await expect(service(refused, box).consoles.open('org', VM_ID)).rejects.toBeInstanceOf(
      FailedPreconditionError,
    );
    expect(refused.withdrawn).toEqual([SESSION_ID]);
  });

  it('asks nothing of a VM that is not running', async () => {
    const store = sessions([]);
    await expect(service(store, box, 'Stopped').consoles.open('org', VM_ID)).rejects.toThrow(
      /not running \(Stopped\)/,
    );
    expect(store.inserted).toEqual([]);
  });

  it('validates its options once, when made', () => {
    expect(
      () =>
        new VmConsoleService({
          vms: { find: () => Promise.resolve(undefined) },
          sessions: sessions([]),
          secretBox: box,
          newId: () => SESSION_ID,
          changed: () => undefined,
          options: { waitMs: 0 },
        }),
    ).toThrow(RangeError);
  });
});
