import { useEffect, useRef, type ReactNode } from 'react';

import { useShouldFocusHeading } from './heading-focus.js';

/**
 * A page's frame: its h1, which takes focus when the page arrives by navigation, and the document title,
 * which screen readers announce when a page changes.
 */
export function Page({
  title,
  description,
  actions,
  children,
}: {
  readonly title: string;
  readonly description?: ReactNode;
  readonly actions?: ReactNode;
  readonly children: ReactNode;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shouldFocusHeading = useShouldFocusHeading();
  useEffect(() => {
    document.title = `${title} · NodeRings`;
  }, [title]);
  useEffect(() => {
    if (shouldFocusHeading()) headingRef.current?.focus();
  }, [shouldFocusHeading]);
  return (
    <>
      <div className="page-header">
        <div>
          <h1 tabIndex={-1} ref={headingRef}>
            {title}
          </h1>
          {description !== undefined && <p className="page-description">{description}</p>}
        </div>
        {actions !== undefined && <div className="page-actions">{actions}</div>}
      </div>
      {children}
    </>
  );
}

/** A titled part of a page: a region landmark named by its heading. */
export function Section({
  title,
  id,
  children,
}: {
  readonly title: string;
  /** Stable and unique on the page; names the heading the region is labelled by. */
  readonly id: string;
  readonly children: ReactNode;
}) {
  return (
    <section className="section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="section-heading">
        {title}
      </h2>
      {children}
    </section>
  );
}
