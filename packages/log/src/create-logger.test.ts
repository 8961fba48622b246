import { describe, expect, it } from 'vitest';

import { createLogger, REDACTED } from './create-logger.js';
import { captureLogs } from './log-capture.js';
import { SecretValues } from './secret-values.js';

class CodedError extends Error {
  override readonly name = 'CodedError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

describe('createLogger', () => {
  it('writes one JSON object per line with app, level name, ISO time, message, bound and given fields', () => {
    const { logger, raw, lines } = captureLogs({ name: 'operator' });
    logger.info({ workers: 4 }, 'started');
    logger.warn({ ms: 12 }, 'slow');
    logger.child({ key: 'default/vm-1' }).error({ detail: 'two\nlines' }, 'failed\nbadly');
    expect(raw).toHaveLength(3);
    for (const line of raw) expect(line).not.toContain('\n');
    const [info, warn, error] = lines;
    expect(info).toMatchObject({ app: 'operator', level: 'info', msg: 'started', workers: 4 });
    expect(warn).toMatchObject({ level: 'warn', msg: 'slow', ms: 12 });
    expect(error).toMatchObject({
      level: 'error',
      msg: 'failed\nbadly',
      key: 'default/vm-1',
      detail: 'two\nlines',
    });
    expect(String(info?.time)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('writes only lines at or above its level', () => {
    const { logger, lines } = captureLogs({ level: 'warn' });
    logger.debug('hidden');
    logger.info('hidden too');
    logger.warn('shown');
    logger.error('shown too');
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ['warn', 'shown'],
      ['error', 'shown too'],
    ]);
  });

  it("keeps pino's numeric levels and epoch milliseconds when asked", () => {
    const written: string[] = [];
    const logger = createLogger({
      name: 'control-plane',
      format: 'pino',
      destination: { write: (line: string) => written.push(line) },
    });
    logger.info({ url: 'http://127.0.0.1:1' }, 'control plane listening');
    const line = JSON.parse(written[0] ?? '') as Record<string, unknown>;
    expect(line).toMatchObject({ level: 30, app: 'control-plane', msg: 'control plane listening' });
    expect(typeof line.time).toBe('number');
  });

  it('redacts fields whose names are secret, at the top level, one object down and bound to a child', () => {
    const { logger, raw, lines } = captureLogs();
    logger.child({ token: 'child-token-1' }).info(
      {
        PROXMOX_TOKEN_SECRET: 'abc-123-def',
        password: 'hunter2-pw',
        Authorization: 'PVEAPIToken=x',
        'user-data': '#cloud-config',
        userData: '#cloud-config 2',
        cookie: 'PVEAuthCookie=1',
        ticket: 'PVE:ticket',
        req: { headers: { authorization: 'Bearer abc.def' } },
        session: { ticket: 'PVEVNC:x', password: 'rfb-pw-1' },
        fleet: { accountSeed: 'SAAB-seed', jwt: 'eyJ.jwt' },
        vmid: 100,
      },
      'credentials',
    );
    const [line] = lines;
    for (const key of [
      'token',
      'PROXMOX_TOKEN_SECRET',
      'password',
      'Authorization',
      'user-data',
      'userData',
      'cookie',
      'ticket',
    ]) {
      expect(line?.[key]).toBe(REDACTED);
    }
    expect(line).toMatchObject({
      req: { headers: { authorization: REDACTED } },
      session: { ticket: REDACTED, password: REDACTED },
      fleet: { accountSeed: REDACTED, jwt: REDACTED },
      vmid: 100,
    });
    for (const value of [
      'child-token-1',
      'abc-123-def',
      'hunter2-pw',
      'cloud-config',
      'PVE:ticket',
      'Bearer abc',
      'PVEVNC',
      'rfb-pw-1',
      'SAAB-seed',
      'eyJ.jwt',
    ]) {
      expect(raw.join('')).not.toContain(value);
    }
  });

  it('masks every known secret value wherever it appears, in messages and fields, JSON-escaped too', () => {
    const { logger, secrets, raw, lines } = captureLogs();
    const escaped = 'SUAB"secret\\seed';
    secrets.add(escaped);
    logger.info('before it was known: f00dfeed-cafe');
    secrets.add('f00dfeed-cafe');
    logger.child({ via: 'https://pve?x=f00dfeed-cafe' }).info(
      {
        seedCopy: escaped,
        nested: { deep: [escaped] },
        error: new Error('refused f00dfeed-cafe'),
      },
      'token f00dfeed-cafe refused',
    );
    const [, masked] = raw;
    expect(masked).not.toContain('f00dfeed-cafe');
    expect(masked).not.toContain('secret');
    expect(lines[1]).toMatchObject({
      msg: `token ${REDACTED} refused`,
      via: `https://pve?x=${REDACTED}`,
      seedCopy: REDACTED,
      nested: { deep: [REDACTED] },
      error: { message: `refused ${REDACTED}` },
    });
    // Only lines written after a value is known are masked.
    expect(lines[0]?.msg).toBe('before it was known: f00dfeed-cafe');
  });

  it('leaves values too short to be secrets alone, so ordinary text is not garbled', () => {
    const secrets = new SecretValues();
    secrets.add('on');
    expect(secrets.mask('connection established', REDACTED)).toBe('connection established');
  });

  it('writes errors in fields as name, message and code, and keeps pino’s serializer for err', () => {
    const { logger, lines } = captureLogs();
    logger.warn(
      { error: new CodedError('NODE_NOT_FOUND', "node 'pve9' is unknown"), reason: new Error('timed out') },
      'failed',
    );
    logger.warn({ err: new Error('closed') }, 'connection closed');
    expect(lines[0]).toMatchObject({
      error: { name: 'CodedError', message: "node 'pve9' is unknown", code: 'NODE_NOT_FOUND' },
      reason: { name: 'Error', message: 'timed out' },
    });
    expect(lines[1]?.err).toMatchObject({ type: 'Error', message: 'closed' });
    expect(String((lines[1]?.err as { stack?: unknown }).stack)).toContain('closed');
  });
});
