import { resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { parseSandboxOptions, UsageError } from './sandbox-options.js';

describe('the sandbox flags', () => {
  it('default to every listener on 127.0.0.1 from 8080 on and the data in ./.data/sandbox, reused', () => {
    expect(parseSandboxOptions([])).toEqual({
      listen: { host: '127.0.0.1', port: 8080 },
      pveListen: { host: '127.0.0.1', port: 8081 },
      kubeListen: { host: '127.0.0.1', port: 8082 },
      exporterListen: { host: '127.0.0.1', port: 8083 },
      operatorMetricsListen: { host: '127.0.0.1', port: 8084 },
      dataDir: resolve('.data/sandbox'),
      reset: false,
    });
  });

  it('move every listener with --port, and one of them with its own flag', () => {
    expect(parseSandboxOptions(['--port', '9000', '--kube-listen', '0.0.0.0:6443'])).toMatchObject({
      listen: { host: '127.0.0.1', port: 9000 },
      pveListen: { host: '127.0.0.1', port: 9001 },
      kubeListen: { host: '0.0.0.0', port: 6443 },
      exporterListen: { host: '127.0.0.1', port: 9003 },
      operatorMetricsListen: { host: '127.0.0.1', port: 9004 },
    });
    expect(parseSandboxOptions(['--port', '0'])).toMatchObject({
      listen: { port: 0 },
      pveListen: { port: 0 },
      kubeListen: { port: 0 },
      exporterListen: { port: 0 },
      operatorMetricsListen: { port: 0 },
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
      ['--port', '65532'],
      ['--exporter-listen', '9221'],
      ['--port', 'http'],
      ['--port', '1', '--listen', '127.0.0.1:2'],
    ])
      expect(() => parseSandboxOptions(argv), argv.join(' ')).toThrow(UsageError);
  });
});
