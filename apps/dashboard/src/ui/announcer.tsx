import { createContext, use, useCallback, useMemo, useState, type ReactNode } from 'react';

interface AnnouncerValue {
  /** Says something politely to screen readers (a saved form, a started VM) without moving focus. */
  readonly announce: (message: string) => void;
}

const AnnouncerContext = createContext<AnnouncerValue | undefined>(undefined);

export function AnnouncerProvider({ children }: { readonly children: ReactNode }) {
  const [message, setMessage] = useState('');
  // The same sentence twice must be heard twice: clear, then set on the next frame.
  const announce = useCallback((next: string) => {
    setMessage('');
    requestAnimationFrame(() => {
      setMessage(next);
    });
  }, []);
  const value = useMemo(() => ({ announce }), [announce]);
  return (
    <AnnouncerContext value={value}>
      {children}
      <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {message}
      </div>
    </AnnouncerContext>
  );
}

export function useAnnouncer(): AnnouncerValue {
  const value = use(AnnouncerContext);
  if (value === undefined) throw new Error('useAnnouncer outside AnnouncerProvider');
  return value;
}
