import { describe, expect, it } from 'vitest';

import { decideEnrollment, REBIND_QUIET_MS, type HeldIdentity } from './enrollment-decision.js';

const KEY_A = `U${'A'.repeat(55)}`;
const KEY_B = `U${'B'.repeat(55)}`;
const MACHINE = '0123456789abcdef0123456789abcdef';
const BOARD = '4C4C4544-0042-3510-8051-B7C04F4E4E32';
const T0 = new Date('2026-11-30T12:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

const held: HeldIdentity = {
  publicKey: KEY_A,
  keyBoundAt: T0,
  lastSeenAt: null,
  machineId: MACHINE,
  systemUuid: BOARD.toLowerCase(),
};

describe('decideEnrollment', () => {
  it('answers the same record to the same key, whatever the signals and the time', () => {
    expect(decideEnrollment(held, { publicKey: KEY_A, hostSignals: {} }, at(1))).toEqual({
      kind: 'same-key',
    });
  });

  it('refuses another key while the record is heard from within five minutes', () => {
    const heard = { ...held, lastSeenAt: at(10 * 60_000) };
    expect(
      decideEnrollment(heard, { publicKey: KEY_B, hostSignals: { machineId: MACHINE } }, at(14 * 60_000)),
    ).toEqual({ kind: 'in-use', reason: 'live', quietSince: at(10 * 60_000) });
  });

  it('counts a never-heard record as quiet since its enrollment', () => {
    const caller = { publicKey: KEY_B, hostSignals: { machineId: MACHINE } };
    expect(decideEnrollment(held, caller, at(REBIND_QUIET_MS - 1))).toMatchObject({ reason: 'live' });
    expect(decideEnrollment(held, caller, at(REBIND_QUIET_MS))).toEqual({ kind: 'rebind' });
  });

  it('counts from a re-bind when the new holder was never heard from', () => {
    const rebound = { ...held, lastSeenAt: at(0), keyBoundAt: at(20 * 60_000) };
    const caller = { publicKey: KEY_B, hostSignals: { machineId: MACHINE } };
    expect(decideEnrollment(rebound, caller, at(24 * 60_000))).toMatchObject({ reason: 'live' });
    expect(decideEnrollment(rebound, caller, at(25 * 60_000))).toEqual({ kind: 'rebind' });
  });

  it('re-binds a quiet record on a matching machine-id or DMI UUID (any case)', () => {
    const later = at(REBIND_QUIET_MS);
    expect(decideEnrollment(held, { publicKey: KEY_B, hostSignals: { systemUuid: BOARD } }, later)).toEqual({
      kind: 'rebind',
    });
    expect(
      decideEnrollment(
        held,
        {
          publicKey: KEY_B,
          hostSignals: { machineId: 'ffffffffffffffffffffffffffffffff', systemUuid: BOARD },
        },
        later,
      ),
    ).toEqual({ kind: 'rebind' });
  });

  it('keeps refusing a quiet record without a matching signal', () => {
    const later = at(REBIND_QUIET_MS * 10);
    for (const hostSignals of [{}, { machineId: 'ffffffffffffffffffffffffffffffff' }]) {
      expect(decideEnrollment(held, { publicKey: KEY_B, hostSignals }, later)).toEqual({
        kind: 'in-use',
        reason: 'no-signal',
        quietSince: T0,
      });
    }
    const unsignalled = { ...held, machineId: null, systemUuid: null };
    expect(
      decideEnrollment(unsignalled, { publicKey: KEY_B, hostSignals: { machineId: MACHINE } }, later),
    ).toMatchObject({ reason: 'no-signal' });
  });
});
