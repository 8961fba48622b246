import { expect, test } from 'vitest';

import { PveInvalidArgumentError } from './errors.js';
import { encodeSshKeys } from './ssh-keys.js';
import { vmConfigForm } from './vm-config-form.js';

test('joins each list parameter with its own separator and encodes sshkeys', () => {
  const keys = ['ssh-ed25519 AAAA+x= a@b'];
  expect(
    vmConfigForm({
      delete: ['ide0', 'unused0'],
      revert: ['cores'],
      tags: ['nr', 'customer'],
      sshkeys: keys,
      cores: 2,
      onboot: true,
      ipconfig0: 'ip=203.0.113.10/24,gw=203.0.113.1',
    }),
  ).toEqual({
    delete: 'ide0,unused0',
    revert: 'cores',
    tags: 'nr;customer',
    sshkeys: encodeSshKeys(keys),
    cores: 2,
    onboot: true,
    ipconfig0: 'ip=203.0.113.10/24,gw=203.0.113.1',
  });
});

test('refuses a list for a parameter that takes none', () => {
  expect(() => vmConfigForm({ nameserver: ['1.1.1.1', '8.8.8.8'] })).toThrow(PveInvalidArgumentError);
});
