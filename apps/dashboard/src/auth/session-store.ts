/**
 * The signed-in session, kept in the tab's sessionStorage: it ends when the tab closes and is never shared
 * with other tabs or left behind on the machine, as localStorage would.
 */
export interface Session {
  readonly token: string;
  /** The organisation calls act in; empty for a user who belongs to none yet. */
  readonly organizationId: string;
  readonly email: string;
}

const KEY = 'noderings.session';

function isSession(value: unknown): value is Session {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.token === 'string' &&
    v.token !== '' &&
    typeof v.organizationId === 'string' &&
    typeof v.email === 'string'
  );
}

/** The stored session; undefined when there is none or what is stored is not one. */
export function readSession(storage: Pick<Storage, 'getItem'>): Session | undefined {
  const text = storage.getItem(KEY);
  if (text === null) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isSession(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function writeSession(storage: Pick<Storage, 'setItem'>, session: Session): void {
  storage.setItem(KEY, JSON.stringify(session));
}

export function clearSession(storage: Pick<Storage, 'removeItem'>): void {
  storage.removeItem(KEY);
}
