import { describe, expect, test } from 'vitest';

import { encodeForm } from './form-encoding.js';
import { decodeSshKeys, encodeSshKeys } from './ssh-keys.js';

/** The check qemu-server applies to the stored `sshkeys` value. */
const PROXMOX_SSHKEYS = /^[-%a-zA-Z0-9_.!~*'()]*$/;

const KEYS = [
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIH+/abc= alice@example.com',
  'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ+x/y== bob@host (laptop)',
];

describe('sshkeys', () => {
  test('the stored value matches the pattern Proxmox checks, keys separated by %0A', () => {
    const value = encodeSshKeys(KEYS);
    expect(value).toMatch(PROXMOX_SSHKEYS);
    expect(value).toContain('%0A');
    expect(value).toContain('%2B');
    expect(value).toContain('%3D');
    expect(value).toContain('%40');
    expect(value).toContain('%20');
  });

  test('survives the second (form) encoding: the server reads back exactly the stored value', () => {
    const stored = encodeSshKeys(KEYS);
    const onTheWire = encodeForm({ sshkeys: stored });
    expect(new URLSearchParams(onTheWire).get('sshkeys')).toBe(stored);
    expect(onTheWire).toContain('%250A');
  });

  test('decodes what GET config returns', () => {
    expect(decodeSshKeys(encodeSshKeys(KEYS))).toEqual(KEYS);
  });

  test('drops blank lines and surrounding whitespace', () => {
    expect(decodeSshKeys(encodeSshKeys(['  ', `${KEYS[0] ?? ''}\n`]))).toEqual([KEYS[0]]);
    expect(encodeSshKeys([])).toBe('');
  });
});
