import { resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { parseSandboxOptions, UsageError } from './sandbox-options.js';

describe('the sandbox flags', () => {
  it('default to the control plane on 127.0.0.1:8080 and the data in ./.data/sandbox, reused', () => {
    expect(parseSandboxOptions([])).toEqual({
      listen: { host: '127.0.0.1', port: 8080 },
      pveListen: { host: '127.0.0.1', port: 8006 },
      kubeListen: { host: '127.0.0.1', port: 6443 },
      dataDir: resolve('.data/sandbox'),
      reset: false,
    });
  });

  it('take a port on the loopback address, or a whole address, and --reset', () => {
    expect(parseSandboxOptions(['--port', '9090', '--reset'])).toMatchObject({
      listen: { host: '127.0.0.1', port: 9090 },
      reset: true,
    });
    expect(parseSandboxOptions(['--listen', '[::1]:0', '--data-dir', '/srv/sandbox'])).toMatchObject({
      listen: { host: '::1', port: 0 },
      dataDir: '/srv/sandbox',
    });
  });

  it('refuse a port out of range, and --port with --listen', () => {
    for (const argv of [
      ['--port', '65536'],
      ['--port', 'http'],
      ['--port', '1', '--listen', '127.0.0.1:2'],
    ])
      expect(() => parseSandboxOptions(argv), argv.join(' ')).toThrow(UsageError);
  });
});
