import { describe, expect, test } from 'vitest';
import { UsageError, parseCliOptions } from './cli-options.js';

describe('pve-sim command line', () => {
  test('tokens split at the last "=", each with the ACL rules that follow it', () => {
    const options = parseCliOptions([
      '--token',
      'root@pam!sim=S3CRET',
      '--token',
      'op@pve!nr=SECRET',
      '--acl',
      '/vms=PVEVMAdmin',
      '--acl',
      '/storage/local-lvm=Datastore.AllocateSpace,Datastore.Audit',
      '--nodes',
      '2',
      '--http',
      '--task-ms',
      '0',
    ]);
    expect(options).not.toBe('help');
    if (options === 'help') return;
    expect(options.tokens).toEqual([
      { id: 'root@pam!sim', secret: 'S3CRET' },
      {
        id: 'op@pve!nr',
        secret: 'SECRET',
        acl: [
          { path: '/vms', role: 'PVEVMAdmin' },
          { path: '/storage/local-lvm', privileges: ['Datastore.AllocateSpace', 'Datastore.Audit'] },
        ],
      },
    ]);
    expect([options.nodes, options.http, options.taskMs, options.listen, options.authFailDelayMs]).toEqual([
      2,
      true,
      0,
      '127.0.0.1:8006',
      3000,
    ]);
  });

  test.each([
    [['--nodes', 'three'], '--nodes wants a whole number from 1 to 32'],
    [['--nodes', '0'], '--nodes wants a whole number from 1 to 32'],
    [['--acl', '/vms=PVEVMAdmin'], '--acl must follow the --token it applies to'],
    [['--token', 'nobody=SECRET'], '--token wants USER@REALM!TOKENID=SECRET'],
    [['--token', 'root@pam!sim=x', '--acl', '/vms=Wizard'], "--acl: unknown role 'Wizard'"],
    [['--user', 'root'], '--user wants USER@REALM:PASSWORD'],
    [['--task-ms=-1'], '--task-ms wants a whole number'],
    [['--token', 'root@pam!sim=a=b'], '--token wants USER@REALM!TOKENID=SECRET'],
  ])('%j is refused: %s', (argv, message) => {
    expect(() => parseCliOptions(argv)).toThrow(message);
    expect(() => parseCliOptions(argv)).toThrow(UsageError);
  });

  test('unknown flags are refused by the parser', () => {
    expect(() => parseCliOptions(['--fly'])).toThrow(/Unknown option '--fly'/);
    expect(() => parseCliOptions(['--fly'])).toThrow(UsageError);
  });
});
