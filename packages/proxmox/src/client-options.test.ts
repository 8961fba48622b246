import { describe, expect, test } from 'vitest';

import { parseApiToken } from './api-token.js';
import { resolveClientOptions } from './client-options.js';
import { PveInvalidArgumentError } from './errors.js';
import { normalizeFingerprint } from './tls-pinning.js';

const TOKEN = 'root@pam!sim=5f0c1a2b-0000-4000-8000-000000000001';
const FINGERPRINT =
  'AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89';

describe('API token', () => {
  test('reads user@realm!tokenid=secret, with or without the header prefix', () => {
    const expected = { userid: 'root@pam', tokenId: 'sim', secret: '5f0c1a2b-0000-4000-8000-000000000001' };
    expect(parseApiToken(TOKEN)).toEqual(expected);
    expect(parseApiToken(`PVEAPIToken=${TOKEN}`)).toEqual(expected);
  });

  test('splits at the last = like Proxmox, so an = belongs to the token id (and makes it invalid)', () => {
    expect(() => parseApiToken('op@pve!k8s=abc=def')).toThrow(
      "token id is not a valid Proxmox token id: 'k8s=abc'",
    );
  });

  test.each(['root@pam=secret', 'root!sim=secret', 'root@pam!sim=', 'root@pam!1x=secret', ''])(
    'rejects %j without echoing the secret',
    (text) => {
      expect(() => parseApiToken(text)).toThrow(PveInvalidArgumentError);
      try {
        parseApiToken(text);
      } catch (e: unknown) {
        expect((e as Error).message).not.toContain('secret=');
      }
    },
  );
});

describe('fingerprint', () => {
  test('normalises lower case and missing colons to Proxmox form', () => {
    expect(normalizeFingerprint(FINGERPRINT.toLowerCase())).toBe(FINGERPRINT);
    expect(normalizeFingerprint(FINGERPRINT.replace(/:/g, ''))).toBe(FINGERPRINT);
  });

  test('rejects a SHA-1 fingerprint or garbage', () => {
    expect(() => normalizeFingerprint('AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01')).toThrow(
      PveInvalidArgumentError,
    );
    expect(() => normalizeFingerprint('not a fingerprint')).toThrow(PveInvalidArgumentError);
  });
});

describe('resolveClientOptions', () => {
  test('defaults: system CA verification, 30 s timeout, two retries', () => {
    const options = resolveClientOptions({ baseUrl: 'https://pve.example:8006', token: TOKEN });
    expect(options.tls).toEqual({ kind: 'system' });
    expect(options.timeoutMs).toBe(30_000);
    expect(options.retry.count).toBe(2);
    expect(options.baseUrl.href).toBe('https://pve.example:8006/');
  });

  test('a pinned fingerprint is normalised once', () => {
    const options = resolveClientOptions({
      baseUrl: 'https://10.0.0.2:8006/',
      token: { userid: 'root@pam', tokenId: 'op', secret: 's' },
      tls: { fingerprint: FINGERPRINT.toLowerCase() },
    });
    expect(options.tls).toEqual({ kind: 'pinned', fingerprint: FINGERPRINT });
  });

  test('insecure only when asked for', () => {
    const options = resolveClientOptions({
      baseUrl: 'https://h:8006',
      token: TOKEN,
      tls: { insecureSkipVerify: true },
    });
    expect(options.tls).toEqual({ kind: 'insecure' });
  });

  test('connect timeout never exceeds the request timeout', () => {
    expect(
      resolveClientOptions({ baseUrl: 'http://h:1', token: TOKEN, timeoutMs: 500 }).connectTimeoutMs,
    ).toBe(500);
  });

  test.each([
    [{ baseUrl: 'pve.example', token: TOKEN }, 'not a URL'],
    [{ baseUrl: 'pve:8006', token: TOKEN }, 'http:// or https://'],
    [{ baseUrl: 'ftp://pve', token: TOKEN }, 'http:// or https://'],
    [{ baseUrl: 'https://pve:8006/api2/json', token: TOKEN }, 'stop before /api2/json'],
    [{ baseUrl: 'https://pve:8006?x=1', token: TOKEN }, 'query'],
    [{ baseUrl: 'https://pve:8006' }, 'token (or login) is required'],
    [{ baseUrl: 'https://pve:8006', token: TOKEN, login: { username: 'a', password: 'b' } }, 'not both'],
    [
      {
        baseUrl: 'https://pve:8006',
        token: TOKEN,
        tls: { fingerprint: FINGERPRINT, insecureSkipVerify: true },
      },
      'choose one',
    ],
    [{ baseUrl: 'http://pve:8006', token: TOKEN, tls: { fingerprint: FINGERPRINT } }, 'http://'],
    [{ baseUrl: 'https://pve:8006', token: TOKEN, tls: { caPem: 'hello' } }, 'PEM'],
    [{ baseUrl: 'https://pve:8006', token: TOKEN, timeoutMs: 0 }, 'timeoutMs'],
    [{ baseUrl: 'https://pve:8006', token: TOKEN, retries: { count: 1.5 } }, 'retries.count'],
  ])('rejects %j', (options, message) => {
    expect(() => resolveClientOptions(options)).toThrow(PveInvalidArgumentError);
    expect(() => resolveClientOptions(options)).toThrow(message);
  });
});
