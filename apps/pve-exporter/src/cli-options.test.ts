import { describe, expect, test } from 'vitest';

import { parseCliOptions } from './cli-options.js';
import { ExporterError } from './exporter-error.js';

function usageError(argv: string[]): string {
  try {
    parseCliOptions(argv);
  } catch (e: unknown) {
    expect(e).toBeInstanceOf(ExporterError);
    expect((e as ExporterError).code).toBe('USAGE');
    return (e as ExporterError).message;
  }
  throw new Error(`accepted ${argv.join(' ')}`);
}

describe('parseCliOptions', () => {
  test('defaults: every interface on 9221, /etc/prometheus/pve.yml, 10 s', () => {
    expect(parseCliOptions([])).toEqual({
      help: false,
      listen: ':9221',
      configFile: '/etc/prometheus/pve.yml',
      timeoutMs: 10_000,
    });
  });

  test('flags', () => {
    expect(parseCliOptions(['--listen', '127.0.0.1:0', '--config', 'pve.yml', '--timeout', '2.5'])).toEqual({
      help: false,
      listen: '127.0.0.1:0',
      configFile: 'pve.yml',
      timeoutMs: 2_500,
    });
    expect(parseCliOptions(['--listen', '[::1]:9221']).listen).toBe('[::1]:9221');
    expect(parseCliOptions(['--help']).help).toBe(true);
  });

  test.each([
    [['--bogus'], "Unknown option '--bogus'"],
    [['extra'], "Unexpected argument 'extra'"],
    [['--listen', '9221'], "--listen: expected HOST:PORT (or :PORT for every interface), got '9221'"],
    [
      ['--listen', 'host:70000'],
      "--listen: expected HOST:PORT (or :PORT for every interface), got 'host:70000'",
    ],
    [['--timeout', '0'], "--timeout: expected a positive number of seconds, got '0'"],
    [['--timeout', 'ten'], "--timeout: expected a positive number of seconds, got 'ten'"],
    [['--config', ''], '--config: expected a file name'],
  ])('%j is refused: %s', (argv, message) => {
    expect(usageError(argv)).toContain(message);
  });
});
