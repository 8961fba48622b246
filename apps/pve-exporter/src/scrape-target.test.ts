import { describe, expect, test } from 'vitest';

import { ExporterError } from './exporter-error.js';
import { targetBaseUrl } from './scrape-target.js';

describe('targetBaseUrl', () => {
  test.each([
    ['localhost', 'https://localhost:8006'],
    ['pve1.example.com', 'https://pve1.example.com:8006'],
    ['pve1.example.com:8443', 'https://pve1.example.com:8443'],
    ['192.168.1.100', 'https://192.168.1.100:8006'],
    ['192.168.1.100:8006', 'https://192.168.1.100:8006'],
    ['[2001:db8::1]:8007', 'https://[2001:db8::1]:8007'],
    ['[2001:db8::1]', 'https://[2001:db8::1]:8006'],
    ['2001:db8::1', 'https://[2001:db8::1]:8006'],
  ])('%s → %s (HTTPS, port 8006 unless given)', (target, url) => {
    expect(targetBaseUrl(target)).toBe(url);
  });

  test.each([
    '',
    'pve1:',
    'pve1:0',
    'pve1:65536',
    'pve1:80a',
    'https://pve1',
    'user@pve1',
    'pve1/api2',
    'pve 1',
    '[2001:db8::1',
    'a:b:c',
    '-pve1',
  ])('refuses %j as BAD_TARGET', (target) => {
    let error: unknown;
    try {
      targetBaseUrl(target);
    } catch (e: unknown) {
      error = e;
    }
    expect(error).toBeInstanceOf(ExporterError);
    expect((error as ExporterError).code).toBe('BAD_TARGET');
    expect((error as ExporterError).message).toBe(
      `target '${target}' is not a host name or IP address with an optional :port`,
    );
  });
});
