import { describe, expect, test } from 'vitest';

import { createLogger } from './logger.js';

describe('createLogger', () => {
  test('writes JSON lines at or above its level, with child fields and errors as messages', () => {
    const lines: string[] = [];
    const log = createLogger({
      level: 'info',
      write: (line) => lines.push(line),
      now: () => new Date('2026-01-01T00:00:00Z'),
    });
    log.debug('hidden');
    log.child({ source: '/pods' }).warn('kubelet /pods failed', { reason: new Error('timed out') });
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([
      {
        level: 'warn',
        time: '2026-01-01T00:00:00.000Z',
        msg: 'kubelet /pods failed',
        source: '/pods',
        reason: 'timed out',
      },
    ]);
  });

  test('masks every secret it was told of, in messages and fields', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'debug', write: (line) => lines.push(line) });
    log.child({}).addSecret('SUAB"secret\\seed');
    log.addSecret('install-token-123');
    log.info('token install-token-123 refused', { seed: 'SUAB"secret\\seed' });
    expect(lines.join()).not.toContain('install-token-123');
    expect(lines.join()).not.toContain('secret');
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ msg: 'token [redacted] refused', seed: '[redacted]' });
  });
});
