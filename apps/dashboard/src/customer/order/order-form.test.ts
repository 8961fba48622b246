import { describe, expect, it } from 'vitest';

import { newIdempotencyKey, orderRequest, validateOrder, type OrderValues } from './order-form.js';

const base: OrderValues = {
  hostname: 'web-1',
  regionId: 'r',
  distro: 'DISTRO_UBUNTU_24_04',
  signInMethod: 'ssh-key',
  sshKeyIds: ['k1'],
  password: '',
  confirmPassword: '',
};

describe('the order form', () => {
  it('needs a key when signing in with keys, and a long enough, confirmed password otherwise', () => {
    expect(validateOrder(base)).toEqual({});
    expect(validateOrder({ ...base, sshKeyIds: [] })).toHaveProperty('sshKeyIds');
    const password = { ...base, signInMethod: 'password' as const, sshKeyIds: [] };
    expect(validateOrder({ ...password, password: 'short', confirmPassword: 'short' })).toHaveProperty(
      'password',
    );
    expect(
      validateOrder({ ...password, password: 'a-long-password', confirmPassword: 'another-one!' }),
    ).toEqual({
      confirmPassword: 'The passwords do not match.',
    });
    expect(
      validateOrder({ ...password, password: 'a-long-password', confirmPassword: 'a-long-password' }),
    ).toEqual({});
  });

  it('refuses a host name the API would refuse', () => {
    expect(validateOrder({ ...base, hostname: 'web_1' })).toHaveProperty('hostname');
  });

  it('sends keys or a password, never both, with the form’s idempotency key', () => {
    expect(orderRequest({ ...base, password: 'ignored-password' }, 'plan', 'key-1')).toEqual({
      hostname: 'web-1',
      planId: 'plan',
      regionId: 'r',
      distro: 'DISTRO_UBUNTU_24_04',
      idempotencyKey: 'key-1',
      sshKeyIds: ['k1'],
    });
    const body = orderRequest(
      { ...base, signInMethod: 'password', password: 'a-long-password' },
      'plan',
      'key-1',
    );
    expect(body).toHaveProperty('password', 'a-long-password');
    expect(body).not.toHaveProperty('sshKeyIds');
  });
});

describe('newIdempotencyKey', () => {
  it('is a version 4 UUID', () => {
    expect(newIdempotencyKey()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('sets the version and variant bits whatever the random bytes are', () => {
    expect(newIdempotencyKey((b) => b.fill(0xff))).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    expect(newIdempotencyKey((b) => b.fill(0))).toBe('00000000-0000-4000-8000-000000000000');
  });

  it('differs between forms', () => {
    expect(newIdempotencyKey()).not.toBe(newIdempotencyKey());
  });
});
