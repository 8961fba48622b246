import { afterEach, describe, expect, test, vi } from 'vitest';
import { AccessControl, checkPermission, privilegesOn, type Identity } from './access-control.js';

afterEach(() => {
  vi.useRealTimers();
});

const token: Identity = { userid: 'root@pam', tokenid: 'sim', id: 'root@pam!sim', viaTicket: false };

describe('VNC tickets', () => {
  test('are accepted from 20 s before to 40 s after issue, for their VM and port only', () => {
    vi.useFakeTimers({ now: new Date('2026-11-30T12:00:00Z') });
    const access = new AccessControl([], []);
    const ticket = access.mintVncTicket(token, 100, 5900);
    expect(access.verifyVncTicket(token, ticket, 100, 5900)).toBe(true);
    expect(access.verifyVncTicket(token, ticket, 100, 5901)).toBe(false);
    expect(access.verifyVncTicket(token, ticket, 101, 5900)).toBe(false);
    expect(access.verifyVncTicket({ ...token, id: 'other@pve!x' }, ticket, 100, 5900)).toBe(false);
    vi.setSystemTime(new Date('2026-11-30T12:00:40Z'));
    expect(access.verifyVncTicket(token, ticket, 100, 5900)).toBe(true);
    vi.setSystemTime(new Date('2026-11-30T12:00:41Z'));
    expect(access.verifyVncTicket(token, ticket, 100, 5900)).toBe(false);
    vi.setSystemTime(new Date('2026-11-30T11:59:40Z'));
    expect(access.verifyVncTicket(token, ticket, 100, 5900)).toBe(true);
    vi.setSystemTime(new Date('2026-11-30T11:59:39Z'));
    expect(access.verifyVncTicket(token, ticket, 100, 5900)).toBe(false);
  });
});

describe('login tickets', () => {
  test('last two hours', () => {
    vi.useFakeTimers({ now: new Date('2026-11-30T12:00:00Z') });
    const access = new AccessControl([], [{ userid: 'root@pam', password: 'pw' }]);
    const { ticket } = access.login('root@pam', 'pw');
    const cookie = `PVEAuthCookie=${encodeURIComponent(ticket)}`;
    expect(access.authenticate(undefined, cookie, 'GET', undefined).userid).toBe('root@pam');
    vi.setSystemTime(new Date('2026-11-30T14:00:01Z'));
    expect(() => access.authenticate(undefined, cookie, 'GET', undefined)).toThrow('authentication failure');
  });
});

describe('ACLs', () => {
  const limited: Identity = {
    ...token,
    acl: [
      { path: '/vms', role: 'PVEAuditor' },
      { path: '/vms/100', role: 'PVEVMAdmin' },
      { path: '/storage/local', privileges: ['Datastore.AllocateSpace'], propagate: false },
    ],
  };

  test('the most specific path decides, and propagation can be switched off', () => {
    expect(privilegesOn(limited, '/vms/100').has('VM.Allocate')).toBe(true);
    expect(privilegesOn(limited, '/vms/101').has('VM.Allocate')).toBe(false);
    expect(privilegesOn(limited, '/vms/101').has('VM.Audit')).toBe(true);
    expect(privilegesOn(limited, '/storage/local').has('Datastore.AllocateSpace')).toBe(true);
    expect(privilegesOn(limited, '/storage/local/sub').size).toBe(0);
    expect(privilegesOn(limited, '/nodes/pve1').size).toBe(0);
  });

  test('a denied check names the path and the privileges, as PVE does', () => {
    expect(() => {
      checkPermission(limited, '/vms/101', ['VM.PowerMgmt']);
    }).toThrow('Permission check failed (/vms/101, VM.PowerMgmt)');
  });
});
