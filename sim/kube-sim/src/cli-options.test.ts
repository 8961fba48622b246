import { describe, expect, it } from 'vitest';
import { parseCliOptions, UsageError } from './cli-options.js';

describe('parseCliOptions', () => {
  it('reads the flags with their defaults', () => {
    expect(parseCliOptions([])).toEqual({
      listen: '127.0.0.1:6443',
      kubeconfigPath: './kubeconfig.yaml',
      http: false,
      tokens: [],
      watchWindow: 10_000,
    });
    expect(
      parseCliOptions([
        '--listen',
        '0.0.0.0:7443',
        '--http',
        '--token',
        't1=alice:devs,ops',
        '--token',
        't2=bob',
        '--watch-window',
        '5',
      ]),
    ).toMatchObject({
      listen: '0.0.0.0:7443',
      http: true,
      watchWindow: 5,
      tokens: [
        { token: 't1', username: 'alice', groups: ['devs', 'ops'] },
        { token: 't2', username: 'bob' },
      ],
    });
  });

  it.each([
    [['--bogus']],
    [['--token', 'no-user']],
    [['--watch-window', 'many']],
    [['--token-file', '/does/not/exist']],
    [['extra']],
  ])('refuses %j', (argv) => {
    expect(() => parseCliOptions(argv)).toThrow(UsageError);
  });
});
