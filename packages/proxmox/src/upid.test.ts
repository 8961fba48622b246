import { describe, expect, test } from 'vitest';

import { InvalidUpidError } from './errors.js';
import { formatUpid, isUpid, parseUpid } from './upid.js';

describe('UPID', () => {
  test('parses a task started with an API token', () => {
    expect(parseUpid('UPID:pve:00000ACD:00006AE8:679A423B:qmclone:112:capmox@pve!capi:')).toEqual({
      node: 'pve',
      pid: 0xacd,
      pstart: 0x6ae8,
      starttime: 0x679a423b,
      type: 'qmclone',
      id: '112',
      user: 'capmox@pve!capi',
    });
  });

  test('accepts a 9-digit pstart and an empty id (vzdump of several guests)', () => {
    const upid = parseUpid('UPID:pve-node-2:0001F2A3:1A2B3C4D5:65F00000:vzdump::root@pam:');
    expect(upid.pstart).toBe(0x1a2b3c4d5);
    expect(upid.id).toBe('');
    expect(upid.node).toBe('pve-node-2');
  });

  test('formats back to the same text, upper-case and zero-padded', () => {
    const text = 'UPID:pve1:000000FF:00000010:679A423B:qmstart:100:root@pam!sim:';
    expect(formatUpid(parseUpid(text))).toBe(text);
    expect(
      formatUpid({
        node: 'pve1',
        pid: 255,
        pstart: 16,
        starttime: 0x679a423b,
        type: 'qmstart',
        id: '100',
        user: 'root@pam!sim',
      }),
    ).toBe(text);
  });

  test.each([
    'UPID:pve:00000ACD:00006AE8:679A423B:qmclone:112:capmox@pve!capi',
    'UPID:pve:ACD:00006AE8:679A423B:qmclone:112:root@pam:',
    'UPID:-pve:00000ACD:00006AE8:679A423B:qmclone:112:root@pam:',
    'UPID:pve:00000ACD:00006AE8:679A423B::112:root@pam:',
    'OK',
    '',
  ])('rejects %j', (text) => {
    expect(isUpid(text)).toBe(false);
    expect(() => parseUpid(text)).toThrow(InvalidUpidError);
  });

  test('refuses to format fields that would not parse back', () => {
    expect(() =>
      formatUpid({
        node: 'a:b',
        pid: 1,
        pstart: 1,
        starttime: 1,
        type: 'qmstart',
        id: '1',
        user: 'root@pam',
      }),
    ).toThrow(InvalidUpidError);
  });
});
