import { describe, expect, it } from 'vitest';
import { parseCliOptions, parseTokenFile, UsageError } from './cli-options.js';

describe('parseCliOptions', () => {
  it('reads the flags with their defaults', () => {
    expect(parseCliOptions([])).toEqual({
      host: '127.0.0.1',
      port: 10250,
      pods: 110,
      tokens: [],
      faults: [],
    });
    expect(parseCliOptions(['--help'])).toBe('help');
    expect(
      parseCliOptions([
        '--listen',
        '[::1]:0',
        '--pods',
        '20',
        '--seed',
        '42',
        '--node-name',
        'ip-10-0-1-23.ec2.internal',
        '--token',
        'abc',
        '--token',
        'def,system:serviceaccount:mon:agent,stats+proxy',
        '--token-file',
        '/run/token',
        '--recorded',
        './captures',
        '--ca-out',
        'ca.pem',
        '--fault',
        '/pods=503',
        '--fault',
        '/metrics/cadvisor=hang',
        '--fault',
        '/stats/summary=delay:2500',
      ]),
    ).toEqual({
      host: '::1',
      port: 0,
      pods: 20,
      seed: 42,
      nodeName: 'ip-10-0-1-23.ec2.internal',
      tokens: [
        { token: 'abc' },
        { token: 'def', user: 'system:serviceaccount:mon:agent', subresources: ['stats', 'proxy'] },
      ],
      tokenFile: '/run/token',
      recordedDir: './captures',
      caOut: 'ca.pem',
      faults: [
        ['/pods', { status: 503 }],
        ['/metrics/cadvisor', { hang: true }],
        ['/stats/summary', { delayMs: 2500 }],
      ],
    });
  });

  it.each([
    [['--bogus']],
    [['extra']],
    [['--listen', 'localhost']],
    [['--listen', '127.0.0.1:70000']],
    [['--pods', 'many']],
    [['--pods', '-1']],
    [['--node-name', 'Bad_Name']],
    [['--token', 'a,b,stats+exec']],
    [['--token', 'a,']],
    [['--fault', '/logs=500']],
    [['--fault', '/pods=teapot']],
    [['--fault', '/pods=999']],
  ])('refuses %j', (argv) => {
    expect(() => parseCliOptions(argv)).toThrow(UsageError);
  });
});

describe('parseTokenFile', () => {
  it('reads one token per line, skipping blanks and comments; a bare service-account token works', () => {
    expect(parseTokenFile('# rotated hourly\neyJhbGciOi.x.y\n\nt2,bob,metrics\n', 'tokens')).toEqual([
      { token: 'eyJhbGciOi.x.y' },
      { token: 't2', user: 'bob', subresources: ['metrics'] },
    ]);
    expect(() => parseTokenFile('t1,,stats\n', 'tokens')).toThrow(/tokens:1/);
  });
});
