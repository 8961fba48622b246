import { describe, expect, it } from 'vitest';

import { createJsonLogger } from './json-logger.js';
import { OperatorError } from './operator-error.js';

function capture(base?: Record<string, unknown>) {
  const lines: string[] = [];
  const logger = createJsonLogger((line) => lines.push(line), base);
  const parsed = (): Record<string, unknown>[] =>
    lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { lines, logger, parsed };
}

describe('createJsonLogger', () => {
  it('writes one JSON object per line with time, level, msg, bound and given fields', () => {
    const { lines, logger, parsed } = capture({ app: 'operator' });
    logger.info('started', { workers: 4 });
    logger.warn('slow', { ms: 12 });
    logger.error('failed\nbadly', { detail: 'two\nlines' });
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line.endsWith('\n')).toBe(true);
      expect(line.slice(0, -1)).not.toContain('\n');
    }
    const [info, warn, error] = parsed();
    expect(info).toMatchObject({ level: 'info', msg: 'started', app: 'operator', workers: 4 });
    expect(warn).toMatchObject({ level: 'warn', msg: 'slow', ms: 12 });
    expect(error).toMatchObject({ level: 'error', msg: 'failed\nbadly', detail: 'two\nlines' });
    expect(Number.isNaN(Date.parse(String(info?.time)))).toBe(false);
  });

  it('masks fields whose names look secret', () => {
    const { lines, logger, parsed } = capture();
    logger.info('credentials', {
      PROXMOX_TOKEN_SECRET: 'abc-123-def',
      token: 'tok-value-1',
      password: 'hunter2-pw',
      Authorization: 'PVEAPIToken=x',
      'user-data': '#cloud-config',
      userData: '#cloud-config 2',
      cookie: 'PVEAuthCookie=1',
      ticket: 'PVE:ticket',
      vmid: 100,
    });
    const [line] = parsed();
    for (const key of [
      'PROXMOX_TOKEN_SECRET',
      'token',
      'password',
      'Authorization',
      'user-data',
      'userData',
      'cookie',
      'ticket',
    ]) {
      expect(line?.[key]).toBe('[REDACTED]');
    }
    expect(line?.vmid).toBe(100);
    for (const value of ['abc-123-def', 'tok-value-1', 'hunter2-pw', 'cloud-config', 'PVE:ticket']) {
      expect(lines.join('')).not.toContain(value);
    }
  });

  it('masks secret-looking fields bound to a child logger', () => {
    const { lines, logger, parsed } = capture();
    logger.child({ key: 'default/vm-1', token: 'child-token-1' }).info('reconciling', { step: 'clone' });
    expect(parsed()[0]).toMatchObject({ key: 'default/vm-1', token: '[REDACTED]', step: 'clone' });
    expect(lines.join('')).not.toContain('child-token-1');
  });

  it('masks registered values wherever they appear, JSON-escaped ones too', () => {
    const { lines, logger } = capture();
    const secret = 'f3b1"c2d4\\5e6f';
    logger.add(secret);
    logger.add('f00dfeed-cafe');
    logger.info(`connecting with f00dfeed-cafe`, {
      url: 'https://pve?token=f00dfeed-cafe',
      nested: { deep: [secret] },
      error: new Error(`refused f00dfeed-cafe`),
    });
    const all = lines.join('');
    expect(all).not.toContain('f00dfeed-cafe');
    expect(all).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(all).toContain('[REDACTED]');
    expect(() => JSON.parse(lines[0] ?? '') as unknown).not.toThrow();
  });

  it('leaves values too short to be secrets alone, so ordinary text is not garbled', () => {
    const { lines, logger } = capture();
    logger.add('on');
    logger.info('connection established');
    expect(lines[0]).toContain('connection established');
  });

  it('writes errors as name, message and code', () => {
    const { logger, parsed } = capture();
    logger.warn('failed', { error: new OperatorError('NODE_NOT_FOUND', "node 'pve9' is unknown") });
    expect(parsed()[0]?.error).toEqual({
      name: 'OperatorError',
      message: "node 'pve9' is unknown",
      code: 'NODE_NOT_FOUND',
    });
  });
});
