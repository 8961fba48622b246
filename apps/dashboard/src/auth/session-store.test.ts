import { describe, expect, it } from 'vitest';

import { clearSession, readSession, writeSession } from './session-store.js';

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      items.set(key, value);
    },
    removeItem: (key) => {
      items.delete(key);
    },
  };
}

describe('the session store', () => {
  it('reads back what it wrote, and nothing after it is cleared', () => {
    const storage = memoryStorage();
    const session = { token: 'nrs_x', organizationId: 'org', email: 'a@b.example' };
    writeSession(storage, session);
    expect(readSession(storage)).toEqual(session);
    clearSession(storage);
    expect(readSession(storage)).toBeUndefined();
  });

  it('treats anything else stored under its key as no session', () => {
    const storage = memoryStorage();
    storage.setItem('noderings.session', '{not json');
    expect(readSession(storage)).toBeUndefined();
    storage.setItem('noderings.session', JSON.stringify({ token: '', organizationId: 'o', email: 'e' }));
    expect(readSession(storage)).toBeUndefined();
  });
});
