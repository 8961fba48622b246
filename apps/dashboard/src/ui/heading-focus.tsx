import { createContext, use, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router';

/**
 * Whether a page that mounts now should take focus on its heading: yes after an in-app navigation (as a
 * full page load would announce the new page to a screen reader), no on the first load, where focus
 * belongs to the browser. Pages load lazily and after their data, so the page asks when it mounts.
 */
const HeadingFocusContext = createContext<() => boolean>(() => false);

export function HeadingFocusProvider({ children }: { readonly children: ReactNode }) {
  const location = useLocation();
  const firstKey = useRef(location.key);
  const currentKey = useRef(location.key);
  // Written while rendering, not in an effect: a page's mount effect runs before this provider's effects
  // and must already see the location it was navigated to.
  currentKey.current = location.key;
  const shouldFocus = useRef(() => currentKey.current !== firstKey.current);
  return <HeadingFocusContext value={shouldFocus.current}>{children}</HeadingFocusContext>;
}

export function useShouldFocusHeading(): () => boolean {
  return use(HeadingFocusContext);
}
