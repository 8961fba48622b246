import { useQueryClient } from '@tanstack/react-query';
import { createContext, use, useCallback, useMemo, useRef, useState, type ReactNode } from 'react';

import { createApiClient, type ApiClient } from '../api/api-client.js';
import { clearSession, readSession, writeSession, type Session } from './session-store.js';

/** Why the user is signed out, for the sign-in page to say. */
export type SignedOutReason = 'signed-out' | 'expired';

interface SessionContextValue {
  readonly session: Session | undefined;
  readonly signedOutReason: SignedOutReason | undefined;
  readonly api: ApiClient;
  readonly signIn: (session: Session) => void;
  readonly signOut: () => Promise<void>;
  readonly switchOrganization: (organizationId: string) => void;
  /** Records the organisation the session acts in when it named none (or one it left), keeping caches. */
  readonly adoptOrganization: (organizationId: string) => void;
}

const SessionContext = createContext<SessionContextValue | undefined>(undefined);

export function SessionProvider({ children }: { readonly children: ReactNode }) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<Session | undefined>(() => readSession(window.sessionStorage));
  const [signedOutReason, setSignedOutReason] = useState<SignedOutReason | undefined>();
  // The API client reads the session at every call; a ref keeps it current without a new client.
  const sessionRef = useRef(session);

  const replace = useCallback((next: Session | undefined) => {
    sessionRef.current = next;
    if (next === undefined) clearSession(window.sessionStorage);
    else writeSession(window.sessionStorage, next);
    setSession(next);
  }, []);

  const end = useCallback(
    (reason: SignedOutReason) => {
      replace(undefined);
      setSignedOutReason(reason);
      // Nothing of one account or organisation may show in the next.
      queryClient.clear();
    },
    [queryClient, replace],
  );

  const api = useMemo(
    () =>
      createApiClient({
        credentials: () => sessionRef.current,
        onUnauthenticated: () => {
          end('expired');
        },
      }),
    [end],
  );

  const value = useMemo<SessionContextValue>(
    () => ({
      session,
      signedOutReason,
      api,
      signIn: (next) => {
        queryClient.clear();
        setSignedOutReason(undefined);
        replace(next);
      },
      signOut: async () => {
        try {
          await api.post('/v1/auth/logout');
        } catch {
          // The token is forgotten here either way; a refused logout leaves nothing to do.
        }
        end('signed-out');
      },
      switchOrganization: (organizationId) => {
        if (sessionRef.current === undefined) return;
        queryClient.clear();
        replace({ ...sessionRef.current, organizationId });
      },
      adoptOrganization: (organizationId) => {
        if (sessionRef.current === undefined) return;
        replace({ ...sessionRef.current, organizationId });
      },
    }),
    [session, signedOutReason, api, queryClient, replace, end],
  );

  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): SessionContextValue {
  const value = use(SessionContext);
  if (value === undefined) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The API client of the signed-in session (or an anonymous one before sign-in). */
export function useApi(): ApiClient {
  return useSession().api;
}
